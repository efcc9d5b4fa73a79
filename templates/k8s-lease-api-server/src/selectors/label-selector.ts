// Label selectors as k8s.io/apimachinery/pkg/labels/selector.go parses them: its lexer, its recursive
// descent parser, NewRequirement's validation and its error wording (part of what clients see in a 400).
import { labelValueErrors, qualifiedNameErrors } from '../names.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { ValueStyle } from '../field-value.js';
import { renderBadValue } from '../field-value.js';
import { goQuote, parseInt64 } from './strconv.js';
import { sortByBytes } from '../byte-order.js';
import { MAX_STATUS_CAUSES, truncateQuoted } from '../status.js';

export type LabelOperator = 'exists' | 'notexists' | 'eq' | 'neq' | 'in' | 'notin' | 'gt' | 'lt';

export interface LabelRequirement {
  key: string;
  op: LabelOperator;
  values: string[];
}

type TokenKind =
  | 'error'
  | 'end'
  | 'closedPar'
  | 'comma'
  | 'doesNotExist'
  | 'doubleEquals'
  | 'equals'
  | 'greaterThan'
  | 'identifier'
  | 'in'
  | 'lessThan'
  | 'notEquals'
  | 'notIn'
  | 'openPar';

interface Token {
  kind: TokenKind;
  literal: string;
}

const KEYWORDS: ReadonlyMap<string, TokenKind> = new Map<string, TokenKind>([
  [')', 'closedPar'],
  [',', 'comma'],
  ['!', 'doesNotExist'],
  ['==', 'doubleEquals'],
  ['=', 'equals'],
  ['>', 'greaterThan'],
  ['in', 'in'],
  ['<', 'lessThan'],
  ['!=', 'notEquals'],
  ['notin', 'notIn'],
  ['(', 'openPar'],
]);

const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';
// Go's lexer reads a 0 byte both at the end of input and for a NUL in it.
const NUL = '\u0000';

function isWhitespace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
}

function isSpecialSymbol(ch: string): boolean {
  return '=!(),><'.includes(ch) && ch !== '';
}

// An identifier runs until whitespace, a special symbol or a NUL (Go's lexer reads a 0 byte as the end).
const IDENTIFIER_RUN = /[^=!(),>< \t\r\n\u0000]*/y;

/**
 * The Lexer of labels/selector.go, byte for byte (every special character is ASCII), in linear time: an
 * identifier is one regular-expression run, and a special symbol is one character or one of the two-character
 * keywords (== and !=), since every special character alone is a keyword and no keyword is longer than two.
 */
class Lexer {
  private pos = 0;

  constructor(private readonly text: string) {}

  private scanIdOrKeyword(): Token {
    const start = this.pos;
    IDENTIFIER_RUN.lastIndex = start;
    IDENTIFIER_RUN.test(this.text);
    const end = IDENTIFIER_RUN.lastIndex;
    // scanIDOrKeyword stops at a NUL having read it, so the NUL is consumed with the identifier.
    this.pos = this.text[end] === NUL ? end + 1 : end;
    const literal = this.text.slice(start, end);
    return { kind: KEYWORDS.get(literal) ?? 'identifier', literal };
  }

  private scanSpecialSymbol(): Token {
    const pair = this.text.slice(this.pos, this.pos + 2);
    const two = pair.length === 2 ? KEYWORDS.get(pair) : undefined;
    const literal = two === undefined ? pair.slice(0, 1) : pair;
    this.pos += literal.length;
    // scanSpecialSymbol, like scanIDOrKeyword, stops at a NUL having read it.
    if (this.text[this.pos] === NUL) this.pos++;
    return { kind: KEYWORDS.get(literal) ?? 'error', literal };
  }

  lex(): Token {
    while (this.pos < this.text.length && isWhitespace(this.text[this.pos] ?? '')) this.pos++;
    const ch = this.text[this.pos] ?? NUL;
    if (ch === NUL) {
      if (this.pos < this.text.length) this.pos++;
      return { kind: 'end', literal: '' };
    }
    return isSpecialSymbol(ch) ? this.scanSpecialSymbol() : this.scanIdOrKeyword();
  }
}

/**
 * The scanned tokens, lexed as the parser reaches them. Go's Parser lexes the whole input first; lexing never
 * fails (a bad symbol is an error token), so lexing on demand reads the same tokens, and a selector that fails
 * early is not lexed to its end.
 */
class Tokens {
  private readonly lexer: Lexer;
  private readonly scanned: Token[] = [];

  constructor(text: string) {
    this.lexer = new Lexer(text);
  }

  at(index: number): Token {
    while (this.scanned.length <= index) {
      const last = this.scanned[this.scanned.length - 1];
      if (last?.kind === 'end') return last;
      this.scanned.push(this.lexer.lex());
    }
    return this.scanned[index] ?? END;
  }
}

const END: Token = { kind: 'end', literal: '' };

/** A field.Error as NewRequirement builds it, rendered by its Error(); a long value is cut as a Status cuts it. */
function invalidValue(path: string, value: string, detail: string): string {
  return `${path}: Invalid value: ${goQuote(truncateQuoted(value))}: ${detail}`;
}

/** The values slice as field.Invalid renders it in the release (`[]string{…}` up to 1.33, JSON from 1.34). */
function valuesSlice(values: string[], style: ValueStyle): string {
  return renderBadValue({ style, goType: '[]string', items: values });
}

// validateLabelKey with a nil *field.Path, whose String() is "<nil>".
function keyError(key: string, path: string): string | undefined {
  const errors = qualifiedNameErrors(key);
  return errors.length === 0 ? undefined : invalidValue(path, key, errors.join('; '));
}

/** utilerrors.NewAggregate(...).Error(): one message alone, several deduplicated inside brackets. */
function aggregate(messages: string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? (unique[0] ?? '') : `[${unique.join(', ')}]`;
}

/** labels.NewRequirement's checks for the operators the parser can produce. */
function newRequirement(
  key: string,
  op: LabelOperator,
  values: string[],
  style: ValueStyle,
): Result<LabelRequirement, string> {
  const errors: string[] = [];
  const badKey = keyError(key, 'key');
  if (badKey !== undefined) errors.push(badKey);
  if ((op === 'in' || op === 'notin') && values.length === 0) {
    errors.push(
      `values: Invalid value: ${valuesSlice(values, style)}: for 'in', 'notin' operators, values set can't be empty`,
    );
  }
  if ((op === 'eq' || op === 'neq') && values.length !== 1) {
    errors.push(
      `values: Invalid value: ${valuesSlice(values, style)}: exact-match compatibility requires one single value`,
    );
  }
  if (op === 'gt' || op === 'lt') {
    if (values.length !== 1)
      errors.push(
        `values: Invalid value: ${valuesSlice(values, style)}: for 'Gt', 'Lt' operators, exactly one value is required`,
      );
    values.forEach((v, i) => {
      if (!parseInt64(v).ok)
        errors.push(invalidValue(`values[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"));
    });
  }
  // One error per invalid value, as upstream; past MAX_STATUS_CAUSES they are counted, not rendered (a 1 MiB
  // selector of invalid values would otherwise be a 40 MB message).
  let unreported = 0;
  values.forEach((v, i) => {
    const problems = labelValueErrors(v);
    if (problems.length === 0) return;
    if (errors.length >= MAX_STATUS_CAUSES) unreported++;
    else errors.push(invalidValue(`values[${i}][${key}]`, v, problems.join('; ')));
  });
  if (errors.length === 0) return ok({ key, op, values });
  return err(`${aggregate(errors)}${unreported === 0 ? '' : ` (and ${unreported} more errors)`}`);
}

/** sets.String.List(): unique and sorted by bytes. */
function sortedSet(values: Set<string>): string[] {
  return sortByBytes(values);
}

type Step<T> = Result<T, string>;

/** The Parser of labels/selector.go; 'in' and 'notin' read as identifiers wherever a value may stand. */
class Parser {
  private position = 0;

  constructor(
    private readonly tokens: Tokens,
    private readonly style: ValueStyle,
  ) {}

  private at(index: number, asValue: boolean): Token {
    const token = this.tokens.at(index);
    return asValue && (token.kind === 'in' || token.kind === 'notIn')
      ? { kind: 'identifier', literal: token.literal }
      : token;
  }

  private lookahead(asValue = true): Token {
    return this.at(this.position, asValue);
  }

  private consume(asValue = true): Token {
    return this.at(this.position++, asValue);
  }

  parse(): Step<LabelRequirement[]> {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      const token = this.lookahead();
      if (token.kind === 'end') return ok(requirements);
      if (token.kind !== 'identifier' && token.kind !== 'doesNotExist') {
        return err(`found '${token.literal}', expected: !, identifier, or 'end of string'`);
      }
      const requirement = this.requirement();
      if (!requirement.ok) return err(`unable to parse requirement: ${requirement.error}`);
      requirements.push(requirement.value);
      const after = this.consume();
      if (after.kind === 'end') return ok(requirements);
      if (after.kind !== 'comma') return err(`found '${after.literal}', expected: ',' or 'end of string'`);
      const next = this.lookahead();
      if (next.kind !== 'identifier' && next.kind !== 'doesNotExist')
        return err(`found '${next.literal}', expected: identifier after ','`);
    }
  }

  private requirement(): Step<LabelRequirement> {
    const head = this.keyAndInferredOperator();
    if (!head.ok) return head;
    const { key, op: inferred } = head.value;
    if (inferred !== undefined) return newRequirement(key, inferred, [], this.style);
    const op = this.operator();
    if (!op.ok) return op;
    const values = op.value === 'in' || op.value === 'notin' ? this.valueSet() : this.exactValue();
    if (!values.ok) return values;
    return newRequirement(key, op.value, values.value, this.style);
  }

  private keyAndInferredOperator(): Step<{ key: string; op: 'exists' | 'notexists' | undefined }> {
    let token = this.consume();
    let op: 'exists' | 'notexists' | undefined;
    if (token.kind === 'doesNotExist') {
      op = 'notexists';
      token = this.consume();
    }
    if (token.kind !== 'identifier') return err(`found '${token.literal}', expected: identifier`);
    const badKey = keyError(token.literal, '<nil>');
    if (badKey !== undefined) return err(badKey);
    const next = this.lookahead().kind;
    if ((next === 'end' || next === 'comma') && op === undefined) op = 'exists';
    return ok({ key: token.literal, op });
  }

  private operator(): Step<Exclude<LabelOperator, 'exists' | 'notexists'>> {
    const token = this.consume(false);
    switch (token.kind) {
      case 'in':
        return ok('in');
      case 'notIn':
        return ok('notin');
      case 'equals':
      case 'doubleEquals':
        return ok('eq');
      case 'notEquals':
        return ok('neq');
      case 'greaterThan':
        return ok('gt');
      case 'lessThan':
        return ok('lt');
      default:
        return err(`found '${token.literal}', expected: ${BINARY_OPERATORS}`);
    }
  }

  private valueSet(): Step<string[]> {
    const open = this.consume();
    if (open.kind !== 'openPar') return err(`found '${open.literal}' expected: '('`);
    const first = this.lookahead();
    if (first.kind === 'closedPar') {
      this.consume();
      return ok(['']);
    }
    if (first.kind !== 'identifier' && first.kind !== 'comma')
      return err(`found '${first.literal}', expected: ',', ')' or identifier`);
    const list = this.identifiers();
    if (!list.ok) return list;
    if (this.consume().kind !== 'closedPar') return err(`found '${first.literal}', expected: ')'`);
    return ok(sortedSet(list.value));
  }

  private identifiers(): Step<Set<string>> {
    const values = new Set<string>();
    for (;;) {
      const token = this.consume();
      if (token.kind === 'identifier') {
        values.add(token.literal);
        const next = this.lookahead();
        if (next.kind === 'closedPar') return ok(values);
        if (next.kind !== 'comma') return err(`found '${next.literal}', expected: ',' or ')'`);
      } else if (token.kind === 'comma') {
        if (values.size === 0) values.add('');
        const next = this.lookahead().kind;
        if (next === 'closedPar') {
          values.add('');
          return ok(values);
        }
        if (next === 'comma') {
          this.consume();
          values.add('');
        }
      } else return err(`found '${token.literal}', expected: ',', or identifier`);
    }
  }

  private exactValue(): Step<string[]> {
    const next = this.lookahead().kind;
    if (next === 'end' || next === 'comma') return ok(['']);
    const token = this.consume();
    return token.kind === 'identifier' ? ok([token.literal]) : err(`found '${token.literal}', expected: identifier`);
  }
}

/** labels.Parse: the requirements, or the error text kube-apiserver puts in its 400 (values rendered in `style`). */
export function parseLabelSelector(text: string, style: ValueStyle): Result<LabelRequirement[], string> {
  return new Parser(new Tokens(text), style).parse();
}

function hasLabel(labels: Readonly<Record<string, string>>, key: string): boolean {
  return Object.hasOwn(labels, key);
}

// Requirement.Matches looks values up in a sets.String: a set per requirement keeps a long `in` list O(1) per object.
const valueSets = new WeakMap<LabelRequirement, ReadonlySet<string>>();

function hasValue(req: LabelRequirement, value: string): boolean {
  let set = valueSets.get(req);
  if (set === undefined) {
    set = new Set(req.values);
    valueSets.set(req, set);
  }
  return set.has(value);
}

function matchesOne(req: LabelRequirement, labels: Readonly<Record<string, string>>): boolean {
  // Own properties only: a key such as "constructor" must match a real label, never Object.prototype.
  const has = hasLabel(labels, req.key);
  const value = has ? labels[req.key] : undefined;
  switch (req.op) {
    case 'exists':
      return has;
    case 'notexists':
      return !has;
    case 'eq':
    case 'in':
      return value !== undefined && hasValue(req, value);
    case 'neq':
    case 'notin':
      return value === undefined || !hasValue(req, value);
    case 'gt':
    case 'lt': {
      // Requirement.Matches: both sides as int64; a label that is not one never matches.
      const actual = value === undefined ? undefined : parseInt64(value);
      const limit = parseInt64(req.values[0] ?? '');
      if (actual === undefined || !actual.ok || !limit.ok || req.values.length !== 1) return false;
      return req.op === 'gt' ? actual.value > limit.value : actual.value < limit.value;
    }
  }
}

export function matchesLabels(requirements: LabelRequirement[], labels: Readonly<Record<string, string>>): boolean {
  return requirements.every((req) => matchesOne(req, labels));
}
