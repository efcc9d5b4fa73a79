/**
 * Validation of caller-supplied namespace and name before they are placed in
 * a URL path. Kubernetes would reject invalid values anyway, but only after
 * the URL has been built: a value like `..` or `a/b` would address a
 * different resource than the caller meant, so it must never leave the client.
 */

import { InvalidPathParameterError } from './errors.js';

const LABEL = '[a-z0-9](?:[-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL = new RegExp(`^${LABEL}$`);
const DNS1123_SUBDOMAIN = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
const DNS1123_LABEL_MAX = 63;
const DNS1123_SUBDOMAIN_MAX = 253;

/** A namespace: a DNS-1123 label (`kube-system`), at most 63 characters. Returns it percent-encoded. */
export function namespaceSegment(value: string): string {
  if (typeof value === 'string' && value.length <= DNS1123_LABEL_MAX && DNS1123_LABEL.test(value)) {
    // A no-op for every value the regex accepts; kept so that a future relaxation of the regex cannot open a hole.
    return encodeURIComponent(value);
  }
  throw new InvalidPathParameterError('namespace', String(value), explain(value, 'label'));
}

/**
 * An object name, for Leases a DNS-1123 subdomain (`kube-controller-manager`,
 * `my.lease.example`), at most 253 characters. Returns it percent-encoded.
 */
export function nameSegment(value: string): string {
  if (typeof value === 'string' && value.length <= DNS1123_SUBDOMAIN_MAX && DNS1123_SUBDOMAIN.test(value)) {
    return encodeURIComponent(value);
  }
  throw new InvalidPathParameterError('name', String(value), explain(value, 'subdomain'));
}

/** Only runs on the failure path, so it can afford to look for the most specific explanation. */
function explain(value: unknown, kind: 'label' | 'subdomain'): string {
  if (typeof value !== 'string') return `must be a string, got ${value === null ? 'null' : typeof value}`;
  if (value === '') return 'must not be empty';
  if (value === '.' || value === '..') return `must not be '.' or '..' (relative path segment)`;
  if (value.includes('/')) return `must not contain '/'`;
  if (value.includes('%')) return `must not contain '%' (pass the raw value; the client percent-encodes it)`;
  if (/[\s\u0000-\u001f\u007f]/.test(value)) return 'must not contain whitespace or control characters';
  if (/[^\u0000-\u007f]/.test(value)) return 'must contain only ASCII characters';
  if (/[A-Z]/.test(value)) return 'must be lowercase';
  const max = kind === 'label' ? DNS1123_LABEL_MAX : DNS1123_SUBDOMAIN_MAX;
  if (value.length > max) return `must be no more than ${max} characters (got ${value.length})`;
  if (kind === 'label') {
    if (value.includes('.')) return `must not contain '.' (a DNS-1123 label, e.g. 'my-namespace')`;
    return `must be a DNS-1123 label: lowercase alphanumeric characters or '-', starting and ending with an alphanumeric character (e.g. 'my-namespace', regex '${LABEL}')`;
  }
  return `must be a DNS-1123 subdomain: lowercase alphanumeric characters, '-' or '.', each '.'-separated part starting and ending with an alphanumeric character (e.g. 'my-lease' or 'my.lease.example')`;
}
