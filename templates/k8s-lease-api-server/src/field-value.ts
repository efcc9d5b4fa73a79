// How a field error shows its bad value (apimachinery pkg/util/validation/field/errors.go Error.ErrorBody),
// which changed in 1.34 ("Nicer value rendering in API errors", kubernetes 2b2c9ade). Both releases print
// int64, int32, float64, float32 and bool with %v and a string with %q. Anything else (a uint64, a string
// slice, a struct, a nil) was Go syntax, %#v, up to 1.33 (`0x0`, `[]string{"a", "b"}`) and is json.Marshal
// from 1.34 (`0`, `["a","b"]`). Hand-written: these renderings are what clients read.
import type { JsonObject } from './json.js';
import { releaseMinor } from './release.js';
import { goQuote } from './selectors/strconv.js';

/** Which rendering a release's field errors use for values other than numbers, bools and strings. */
export type ValueStyle = 'go-syntax' | 'json';

/** The first minor whose field.Error renders composite values as JSON. */
const JSON_VALUES_FROM_MINOR = 34;

export function valueStyleFor(release: string): ValueStyle {
  return releaseMinor(release) >= JSON_VALUES_FROM_MINOR ? 'json' : 'go-syntax';
}

/**
 * A bad value whose rendering depends on the release, with the Go type upstream passes: a `[]string`
 * (dryRun, finalizers), a `uint64` (the resourceVersion an update lacks), a `types.UID` (a named string
 * type, so no %q: %#v, then JSON with its HTML-safe escapes), or owner references (`metav1.OwnerReference`
 * and its slice).
 */
export type StyledValue =
  | { style: ValueStyle; goType: '[]string'; items: readonly string[] }
  | { style: ValueStyle; goType: 'uint64'; value: number }
  | { style: ValueStyle; goType: 'types.UID'; uid: string }
  | { style: ValueStyle; goType: 'OwnerReference'; owner: JsonObject }
  | { style: ValueStyle; goType: '[]OwnerReference'; owners: readonly JsonObject[] };

/** A field error's value: what %v and %q print alike in every release, or a styled one. */
export type BadValue = string | number | boolean | StyledValue;

/** encoding/json's string encoding: JSON.stringify's, plus the HTML-safe escapes and U+2028/U+2029. */
export function goJsonString(text: string): string {
  return JSON.stringify(text).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
  );
}

/** metav1.OwnerReference's fields in declaration order; the two pointers are omitempty. */
const OWNER_FIELDS = ['apiVersion', 'kind', 'name', 'uid', 'controller', 'blockOwnerDeletion'] as const;
const OWNER_STRING_FIELDS = new Set(['apiVersion', 'kind', 'name', 'uid']);

/** json.Marshal of a metav1.OwnerReference: struct order, the strings always, the bools when set. */
function ownerJson(owner: JsonObject): string {
  const parts: string[] = [];
  for (const field of OWNER_FIELDS) {
    const value = owner[field];
    if (OWNER_STRING_FIELDS.has(field))
      parts.push(`"${field}":${goJsonString(typeof value === 'string' ? value : '')}`);
    else if (typeof value === 'boolean') parts.push(`"${field}":${value}`);
  }
  return `{${parts.join(',')}}`;
}

function renderJson(value: StyledValue): string {
  switch (value.goType) {
    case '[]string':
      return `[${value.items.map(goJsonString).join(',')}]`;
    case 'uint64':
      return String(value.value);
    case 'types.UID':
      return goJsonString(value.uid);
    case 'OwnerReference':
      return ownerJson(value.owner);
    case '[]OwnerReference':
      return `[${value.owners.map(ownerJson).join(',')}]`;
  }
}

/**
 * %#v up to 1.33. An owner reference is the exception: Go syntax prints its set *bool fields as memory
 * addresses, which no other process can reproduce, so it keeps the JSON form in every release (README).
 */
function renderGoSyntax(value: StyledValue): string {
  switch (value.goType) {
    case '[]string':
      return `[]string{${value.items.map(goQuote).join(', ')}}`;
    case 'uint64':
      return `0x${value.value.toString(16)}`;
    case 'types.UID':
      return goQuote(value.uid);
    case 'OwnerReference':
    case '[]OwnerReference':
      return renderJson(value);
  }
}

/** The value as Error.ErrorBody prints it after "Invalid value: " or "Unsupported value: ". */
export function renderBadValue(value: BadValue): string {
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value.style === 'json' ? renderJson(value) : renderGoSyntax(value);
}

/** fmt's %#v of a []string, which some details embed in every release (ValidateNoNewFinalizers). */
export function goStringSlice(items: readonly string[]): string {
  return renderGoSyntax({ style: 'go-syntax', goType: '[]string', items });
}
