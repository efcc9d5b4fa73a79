// Label selector grammar of k8s.io/apimachinery/pkg/labels: =, ==, !=, in, notin, exists, !exists, >, <.
import type { Result } from '../result.js';
import { err, ok } from '../result.js';

export type LabelOperator = 'exists' | 'notexists' | 'eq' | 'neq' | 'in' | 'notin' | 'gt' | 'lt';

export interface LabelRequirement {
  key: string;
  op: LabelOperator;
  values: string[];
}

type Token = { kind: 'ident'; text: string } | { kind: 'symbol'; text: string } | { kind: 'end' };

const SYMBOLS = ['!=', '==', '=', '!', '(', ')', ',', '>', '<'];
const SPECIAL = new Set(['=', '!', '(', ')', ',', '>', '<']);

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i] ?? '';
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const symbol = SYMBOLS.find((s) => text.startsWith(s, i));
    if (symbol !== undefined) {
      tokens.push({ kind: 'symbol', text: symbol });
      i += symbol.length;
      continue;
    }
    let j = i;
    while (j < text.length && !SPECIAL.has(text[j] ?? '') && !/\s/.test(text[j] ?? '')) j++;
    tokens.push({ kind: 'ident', text: text.slice(i, j) });
    i = j;
  }
  tokens.push({ kind: 'end' });
  return tokens;
}

class Failure {
  constructor(readonly message: string) {}
}

function describe(token: Token): string {
  return token.kind === 'end' ? 'end of string' : token.text;
}

class SelectorParser {
  private pos = 0;

  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.pos] ?? { kind: 'end' };
  }

  private next(): Token {
    const token = this.peek();
    this.pos++;
    return token;
  }

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    if (this.peek().kind === 'end') return requirements;
    for (;;) {
      requirements.push(this.requirement());
      const token = this.next();
      if (token.kind === 'end') return requirements;
      if (token.kind !== 'symbol' || token.text !== ',') throw new Failure(`found '${describe(token)}', expected: ',' or 'end of string'`);
    }
  }

  private identifier(): string {
    const token = this.next();
    if (token.kind !== 'ident') throw new Failure(`found '${describe(token)}', expected: identifier`);
    return token.text;
  }

  private requirement(): LabelRequirement {
    const first = this.peek();
    if (first.kind === 'symbol' && first.text === '!') {
      this.next();
      return { key: this.identifier(), op: 'notexists', values: [] };
    }
    const key = this.identifier();
    const opToken = this.peek();
    if (opToken.kind === 'end' || (opToken.kind === 'symbol' && opToken.text === ',')) return { key, op: 'exists', values: [] };
    this.next();
    const opText = opToken.text;
    switch (opText) {
      case '=':
      case '==':
        return { key, op: 'eq', values: [this.exactValue()] };
      case '!=':
        return { key, op: 'neq', values: [this.exactValue()] };
      case '>':
      case '<': {
        const value = this.exactValue();
        if (!/^-?\d+$/.test(value)) throw new Failure(`for 'Gt', 'Lt' operators, the value must be an integer`);
        return { key, op: opText === '>' ? 'gt' : 'lt', values: [value] };
      }
      case 'in':
      case 'notin':
        if (opToken.kind === 'ident') return { key, op: opText, values: this.valueSet() };
        break;
    }
    throw new Failure(`found '${opText}', expected: in, notin, =, ==, !=, gt, lt`);
  }

  private exactValue(): string {
    const token = this.peek();
    if (token.kind === 'end' || (token.kind === 'symbol' && token.text === ',')) return '';
    if (token.kind === 'ident') {
      this.next();
      return token.text;
    }
    throw new Failure(`found '${describe(token)}', expected: identifier`);
  }

  private valueSet(): string[] {
    const open = this.next();
    if (open.kind !== 'symbol' || open.text !== '(') throw new Failure(`found '${describe(open)}', expected: '('`);
    const values: string[] = [];
    for (;;) {
      const token = this.next();
      if (token.kind === 'ident') values.push(token.text);
      else if (token.kind === 'symbol' && token.text === ')') {
        return values;
      } else if (token.kind === 'symbol' && token.text === ',') {
        continue;
      } else throw new Failure(`found '${describe(token)}', expected: ',', ')' or identifier`);
      const after = this.next();
      if (after.kind === 'symbol' && after.text === ')') return values;
      if (after.kind !== 'symbol' || after.text !== ',') throw new Failure(`found '${describe(after)}', expected: ',' or ')'`);
    }
  }
}

export function parseLabelSelector(text: string): Result<LabelRequirement[], string> {
  try {
    return ok(new SelectorParser(tokenize(text)).parse());
  } catch (e) {
    if (e instanceof Failure) return err(`unable to parse requirement: ${e.message}`);
    throw e;
  }
}

function matchesOne(req: LabelRequirement, labels: Record<string, string>): boolean {
  const has = Object.hasOwn(labels, req.key);
  const value = labels[req.key];
  switch (req.op) {
    case 'exists':
      return has;
    case 'notexists':
      return !has;
    case 'eq':
    case 'in':
      return has && value !== undefined && req.values.includes(value);
    case 'neq':
    case 'notin':
      return !has || value === undefined || !req.values.includes(value);
    case 'gt':
    case 'lt': {
      if (!has || value === undefined || !/^-?\d+$/.test(value)) return false;
      const limit = Number(req.values[0]);
      return req.op === 'gt' ? Number(value) > limit : Number(value) < limit;
    }
  }
}

export function matchesLabels(requirements: LabelRequirement[], labels: Record<string, string>): boolean {
  return requirements.every((req) => matchesOne(req, labels));
}
