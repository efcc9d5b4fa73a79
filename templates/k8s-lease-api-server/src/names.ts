// Name and label syntax rules from k8s.io/apimachinery/pkg/util/validation, with their exact messages.
import { randomInt } from 'node:crypto';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

export function dns1123SubdomainErrors(value: string): string[] {
  const errors: string[] = [];
  if (byteLength(value) > 253) errors.push('must be no more than 253 characters');
  if (!DNS1123_SUBDOMAIN.test(value)) {
    errors.push(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    );
  }
  return errors;
}

export function dns1123LabelErrors(value: string): string[] {
  const errors: string[] = [];
  if (byteLength(value) > 63) errors.push('must be no more than 63 characters');
  if (!DNS1123_LABEL.test(value)) {
    errors.push(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    );
  }
  return errors;
}

// Lengths count UTF-8 bytes, as Go's len() does.
function byteLength(value: string): number {
  return Buffer.byteLength(value, 'utf8');
}

// As apimachinery's IsQualifiedName: split on every '/', and the regex is checked even for an empty name.
export function qualifiedNameErrors(value: string): string[] {
  const parts = value.split('/');
  const errors: string[] = [];
  if (parts.length > 2) {
    return [
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  const name = parts[parts.length - 1] ?? '';
  const prefix = parts.length === 2 ? (parts[0] ?? '') : undefined;
  if (prefix !== undefined) {
    if (prefix.length === 0) errors.push('prefix part must be non-empty');
    else errors.push(...dns1123SubdomainErrors(prefix).map((e) => `prefix part ${e}`));
  }
  if (name.length === 0) errors.push('name part must be non-empty');
  else if (byteLength(name) > 63) errors.push('name part must be no more than 63 characters');
  if (!QUALIFIED_NAME_PART.test(name)) {
    errors.push(
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    );
  }
  return errors;
}

export function labelValueErrors(value: string): string[] {
  const errors: string[] = [];
  if (byteLength(value) > 63) errors.push('must be no more than 63 characters');
  if (!LABEL_VALUE.test(value)) {
    errors.push(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    );
  }
  return errors;
}

// The alphabet of k8s.io/apimachinery/pkg/util/rand: no vowels, so generated names never spell words.
const RAND_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

export function generateNameSuffix(): string {
  let out = '';
  for (let i = 0; i < 5; i++) out += RAND_ALPHABET[randomInt(RAND_ALPHABET.length)];
  return out;
}
