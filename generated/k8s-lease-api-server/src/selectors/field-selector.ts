// Field selectors for Leases: only metadata.name and metadata.namespace are indexed, as on the real server.
import type { Result } from '../result.js';
import { err, ok } from '../result.js';

export interface FieldRequirement {
  field: 'metadata.name' | 'metadata.namespace';
  op: 'eq' | 'neq';
  value: string;
}

const OPERATORS = ['!=', '==', '='] as const;

function splitTerms(text: string): string[] {
  const terms: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? '';
    if (ch === '\\' && i + 1 < text.length) {
      current += ch + (text[i + 1] ?? '');
      i++;
    } else if (ch === ',') {
      terms.push(current);
      current = '';
    } else current += ch;
  }
  terms.push(current);
  return terms;
}

function splitTerm(term: string): { lhs: string; op: (typeof OPERATORS)[number]; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    if (term[i] === '\\') {
      i++;
      continue;
    }
    for (const op of OPERATORS) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

function unescape(value: string): Result<string, string> {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i] ?? '';
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = value[i + 1];
    if (next !== '\\' && next !== ',' && next !== '=') return err(`invalid field selector: invalid escape sequence: \\${next ?? ''}`);
    out += next;
    i++;
  }
  return ok(out);
}

export function parseFieldSelector(text: string): Result<FieldRequirement[], string> {
  const requirements: FieldRequirement[] = [];
  for (const term of splitTerms(text)) {
    if (term === '') continue;
    const parts = splitTerm(term);
    if (parts === undefined) return err(`invalid selector: '${text}'; can't understand '${term}'`);
    const field = parts.lhs.trim();
    const value = unescape(parts.rhs);
    if (!value.ok) return value;
    if (field !== 'metadata.name' && field !== 'metadata.namespace') {
      return err(`field label not supported: ${field}`);
    }
    requirements.push({ field, op: parts.op === '!=' ? 'neq' : 'eq', value: value.value });
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
