/**
 * Validation of caller-supplied namespace and name before they are placed in
 * a URL path. Kubernetes would reject invalid values anyway, but only after
 * the URL has been built: a value like `..` or `a/b` would address a
 * different resource than the caller meant, so it must never leave the client.
 *
 * The rules (DNS-1123): a label is 1..63 lowercase letters, digits and '-',
 * starting and ending with a letter or digit (so no '.', '/', '%', spaces,
 * uppercase or non-ASCII); a subdomain is '.'-separated labels, 253
 * characters at most. The reasons are apimachinery's (pkg/util/validation/validation.go: dns1123LabelErrMsg,
 * dns1123SubdomainErrorMsg, MaxLenError), without the example and regex it appends: this code is in every
 * bundle that addresses a Lease.
 */

import { InvalidPathParameterError } from './errors.js';

/** A namespace: a DNS-1123 label (`kube-system`), at most 63 characters. Returns it as is: it is URL-safe. */
export function namespaceSegment(value: string): string {
  return segment('namespace', value, 63, /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
}

/**
 * An object name, for Leases a DNS-1123 subdomain (`kube-controller-manager`,
 * `my.lease.example`), at most 253 characters. Returns it as is: it is URL-safe.
 */
export function nameSegment(value: string): string {
  return segment('name', value, 253, /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/);
}

function segment(parameter: 'namespace' | 'name', value: string, max: number, pattern: RegExp): string {
  // Everything the patterns accept is URL-safe as is ([a-z0-9.-], never '.' or '..'): nothing to percent-encode.
  // The length first, as apimachinery checks it, and alone: a pattern is never run over an overlong value.
  const long = typeof value !== 'string' || value.length > max;
  if (!long && pattern.test(value)) return value;
  const label = max < 64;
  throw new InvalidPathParameterError(
    parameter,
    String(value),
    long && typeof value === 'string'
      ? `must be no more than ${max} characters`
      : `a lowercase RFC 1123 ${label ? 'label' : 'subdomain'} must consist of lower case alphanumeric characters${label ? " or '-'" : ", '-' or '.'"}, and must start and end with an alphanumeric character`,
  );
}
