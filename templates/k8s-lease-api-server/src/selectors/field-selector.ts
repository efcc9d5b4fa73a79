// Field selectors in two steps, as kube-apiserver takes them: fields.ParseSelector's syntax while the
// query is decoded (k8s.io/apimachinery/pkg/fields/selector.go), then, after ListOptions validation, the
// Lease's field-label conversion. Lease registers no conversion of its own, so the scheme's default
// (runtime.DefaultMetaV1FieldSelectorConversion) applies: only metadata.name and metadata.namespace.
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { goQuote } from './strconv.js';
import { sortByBytes } from '../byte-order.js';

export interface FieldTerm {
  field: string;
  op: 'eq' | 'neq';
  value: string;
}

export interface FieldRequirement extends FieldTerm {
  field: 'metadata.name' | 'metadata.namespace';
}

const OPERATORS = ['!=', '==', '='] as const;

/** splitTerms: commas split terms unless backslash-escaped; the backslash stays in the term. */
function splitTerms(text: string): string[] {
  if (text === '') return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inSlash) inSlash = false;
    else if (ch === '\\') inSlash = true;
    else if (ch === ',') {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms;
}

/** splitTerm: the left side has no escaping, so the first operator found splits the term. */
function splitTerm(term: string): { lhs: string; op: (typeof OPERATORS)[number]; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of OPERATORS) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/** fields.EscapeValue: lets a literal (such as a name from the path) stand as a selector value. */
export function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (ch) => `\\${ch}`);
}

/** fields.UnescapeValue, with its error text (Go prints the offending rune with %v: its code point). */
function unescapeValue(value: string): Result<string, string> {
  if (!/[\\,=]/.test(value)) return ok(value);
  let out = '';
  let inSlash = false;
  for (const ch of value) {
    if (inSlash) {
      if (ch !== '\\' && ch !== ',' && ch !== '=')
        return err(`invalid field selector: invalid escape sequence: \\${ch}`);
      out += ch;
      inSlash = false;
    } else if (ch === '\\') inSlash = true;
    else if (ch === ',' || ch === '=')
      return err(`invalid field selector: unescapedRune character in value: ${ch.codePointAt(0) ?? 0}`);
    else out += ch;
  }
  return inSlash ? err('invalid field selector: invalid escape sequence: \\') : ok(out);
}

/** fields.ParseSelector: terms are sorted first, so the first failing term in byte order is reported. */
export function parseFieldSelector(text: string): Result<FieldTerm[], string> {
  const terms: FieldTerm[] = [];
  for (const part of sortByBytes(splitTerms(text))) {
    if (part === '') continue;
    const parts = splitTerm(part);
    if (parts === undefined) return err(`invalid selector: '${text}'; can't understand '${part}'`);
    const value = unescapeValue(parts.rhs);
    if (!value.ok) return value;
    terms.push({ field: parts.lhs, op: parts.op === '!=' ? 'neq' : 'eq', value: value.value });
  }
  return ok(terms);
}

/** DefaultMetaV1FieldSelectorConversion over every term, in order; its error is the 400's message. */
export function leaseFieldRequirements(terms: FieldTerm[]): Result<FieldRequirement[], string> {
  const requirements: FieldRequirement[] = [];
  for (const term of terms) {
    const { field } = term;
    if (field !== 'metadata.name' && field !== 'metadata.namespace') {
      return err(`${goQuote(field)} is not a known field selector: only "metadata.name", "metadata.namespace"`);
    }
    requirements.push({ ...term, field });
  }
  return ok(requirements);
}

export function matchesFields(requirements: FieldRequirement[], name: string, namespace: string): boolean {
  return requirements.every((req) => {
    const actual = req.field === 'metadata.name' ? name : namespace;
    return req.op === 'eq' ? actual === req.value : actual !== req.value;
  });
}

/** A name fixed by the selector lets lists and watches skip everything else. */
export function exactName(requirements: FieldRequirement[]): string | undefined {
  return requirements.find((r) => r.field === 'metadata.name' && r.op === 'eq')?.value;
}
