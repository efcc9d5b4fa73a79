// A JSON parser that, unlike JSON.parse, reports duplicate keys (strict field validation needs them),
// keeps the text of numbers Go would not accept as integers, and words syntax errors like Go's
// encoding/json, since those messages reach clients verbatim. Hand-written because those three are
// Kubernetes behaviour no JSON library offers; keys are stored as own data ("__proto__" included)
// and nesting is bounded, so hostile bodies cannot reach Object.prototype or the stack.
import type { JsonObject, JsonValue } from '../json.js';
import { MAX_NESTING_DEPTH, setOwn } from '../json.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { goQuote } from '../selectors/strconv.js';
import type { StrictShape } from './strict-shape.js';
import { MAX_STRICT_ERRORS } from './strict-shape.js';

export interface ParsedJson {
  value: JsonValue;
  /** Paths such as "spec.holderIdentity" of keys that appeared more than once (the last one wins), in the order met. */
  duplicates: string[];
  /** Where each repeated key (of `duplicates`, in order) starts in the text: YAML reports them by line. */
  duplicateOffsets: number[];
  /**
   * Literal text of numbers, by path, whose text is not a plain integer ("1e3", "1.0", "99999999999999999999"):
   * Go decodes an integer field with strconv.ParseInt on that text, so the decoder must see it.
   */
  numbers: Map<string, string>;
  /**
   * Given the decoded type's shape: its strict decoding errors (`unknown field "spec.x"`, `duplicate field
   * "spec.y"`) in the order the decoder meets them, each once, at most MAX_STRICT_ERRORS.
   */
  strictErrors?: string[] | undefined;
}

/** Go's scanner error once nesting passes its limit (encoding/json's maxNestingDepth). */
export const EXCEEDED_MAX_DEPTH = 'exceeded max depth';

class SyntaxFailure {
  constructor(readonly message: string) {}
}

function describeChar(ch: string): string {
  if (ch === '\n') return "'\\n'";
  if (ch === '\t') return "'\\t'";
  if (ch === "'") return "'\\''";
  return `'${ch}'`;
}

function joinPath(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

type ShapeAt = StrictShape | undefined;

/** The shape a value of `shape` gives its children, when the value's JSON kind is the one the type decodes. */
function objectShape(shape: ShapeAt): Extract<StrictShape, { kind: 'struct' | 'map' }> | undefined {
  return shape?.kind === 'struct' || shape?.kind === 'map' ? shape : undefined;
}

class Parser {
  private pos = 0;
  private depth = 0;
  readonly duplicates: string[] = [];
  readonly duplicateOffsets: number[] = [];
  readonly numbers: Map<string, string> = new Map();
  readonly strictErrors: string[] = [];
  private readonly seenStrict = new Set<string>();

  constructor(
    private readonly text: string,
    private readonly shape: ShapeAt,
  ) {}

  /** saveStrictError: each error once, in the order met, up to the decoder's bound. */
  private saveStrict(kind: 'unknown field' | 'duplicate field', path: string): void {
    const error = `${kind} ${goQuote(path)}`;
    if (this.strictErrors.length >= MAX_STRICT_ERRORS || this.seenStrict.has(error)) return;
    this.seenStrict.add(error);
    this.strictErrors.push(error);
  }

  parseDocument(): JsonValue {
    this.skipWhitespace();
    if (this.pos >= this.text.length) throw new SyntaxFailure('unexpected end of JSON input');
    const value = this.parseValue('', 'looking for beginning of value', this.shape);
    this.skipWhitespace();
    if (this.pos < this.text.length) {
      throw new SyntaxFailure(`invalid character ${describeChar(this.text[this.pos] ?? '')} after top-level value`);
    }
    return value;
  }

  private fail(context: string): never {
    if (this.pos >= this.text.length) throw new SyntaxFailure('unexpected end of JSON input');
    throw new SyntaxFailure(`invalid character ${describeChar(this.text[this.pos] ?? '')} ${context}`);
  }

  private skipWhitespace(): void {
    while (this.pos < this.text.length) {
      const c = this.text.charCodeAt(this.pos);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      this.pos++;
    }
  }

  private nested<T>(parse: () => T): T {
    if (++this.depth > MAX_NESTING_DEPTH) throw new SyntaxFailure(EXCEEDED_MAX_DEPTH);
    const value = parse();
    this.depth--;
    return value;
  }

  private parseValue(path: string, context: string, shape: ShapeAt): JsonValue {
    const ch = this.text[this.pos];
    switch (ch) {
      case '{':
        return this.nested(() => this.parseObject(path, objectShape(shape)));
      case '[':
        return this.nested(() => this.parseArray(path, shape?.kind === 'list' ? shape.items : undefined));
      case '"':
        return this.parseString();
      case 't':
        return this.parseLiteral('true', true);
      case 'f':
        return this.parseLiteral('false', false);
      case 'n':
        return this.parseLiteral('null', null);
      default:
        if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return this.parseNumber(path);
        return this.fail(context);
    }
  }

  private parseLiteral(word: string, value: JsonValue): JsonValue {
    for (let i = 0; i < word.length; i++) {
      if (this.text[this.pos + i] !== word[i]) {
        this.pos += i;
        return this.fail(`in literal ${word} (expecting '${word[i]}')`);
      }
    }
    this.pos += word.length;
    return value;
  }

  private parseNumber(path: string): number {
    const match = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    match.lastIndex = this.pos;
    const found = match.exec(this.text);
    if (found === null) {
      this.pos++;
      return this.fail('in numeric literal');
    }
    const literal = found[0];
    this.pos += literal.length;
    const value = Number(literal);
    if (!/^-?\d+$/.test(literal) || !Number.isSafeInteger(value)) this.numbers.set(path, literal);
    return value;
  }

  private parseString(): string {
    // Fast path: no escapes between the quotes.
    const start = this.pos + 1;
    let i = start;
    while (i < this.text.length) {
      const c = this.text.charCodeAt(i);
      if (c === 0x22) {
        this.pos = i + 1;
        return this.text.slice(start, i);
      }
      if (c === 0x5c) break;
      if (c < 0x20) {
        this.pos = i;
        return this.fail('in string literal');
      }
      i++;
    }
    let end = i;
    while (end < this.text.length) {
      const c = this.text.charCodeAt(end);
      if (c === 0x5c) end += 2;
      else if (c === 0x22) break;
      else if (c < 0x20) {
        this.pos = end;
        return this.fail('in string literal');
      } else end++;
    }
    if (end >= this.text.length) {
      this.pos = this.text.length;
      return this.fail('in string literal');
    }
    try {
      const parsed: unknown = JSON.parse(this.text.slice(this.pos, end + 1));
      this.pos = end + 1;
      return String(parsed);
    } catch {
      this.pos = end;
      return this.fail('in string escape code');
    }
  }

  /**
   * Strict checks happen at the key, before its value (decode.go object): a struct's undeclared key is
   * unknown (and its value not looked into), a declared or map key seen before is a duplicate.
   */
  private strictKey(shape: ShapeAt, out: JsonObject, key: string, childPath: string): ShapeAt {
    if (shape?.kind === 'map') {
      if (Object.hasOwn(out, key)) this.saveStrict('duplicate field', childPath);
      return shape.values;
    }
    if (shape?.kind !== 'struct') return undefined;
    if (!Object.hasOwn(shape.fields, key)) {
      this.saveStrict('unknown field', childPath);
      return undefined;
    }
    if (Object.hasOwn(out, key)) this.saveStrict('duplicate field', childPath);
    return shape.fields[key];
  }

  private parseObject(path: string, shape: ShapeAt): JsonObject {
    this.pos++;
    const out: JsonObject = {};
    this.skipWhitespace();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.pos] !== '"') this.fail('looking for beginning of object key string');
      const keyStart = this.pos;
      const key = this.parseString();
      this.skipWhitespace();
      if (this.text[this.pos] !== ':') this.fail('after object key');
      this.pos++;
      this.skipWhitespace();
      const childPath = joinPath(path, key);
      const childShape = this.strictKey(shape, out, key, childPath);
      // At the key, before its value, as Go's decoder meets it: a repeated key precedes what repeats inside it.
      if (Object.hasOwn(out, key)) {
        this.duplicates.push(childPath);
        this.duplicateOffsets.push(keyStart);
      }
      // A repeated key's earlier number must not outlive the value that replaces it.
      this.numbers.delete(childPath);
      const value = this.parseValue(childPath, 'looking for beginning of value', childShape);
      setOwn(out, key, value);
      this.skipWhitespace();
      const next = this.text[this.pos];
      if (next === ',') {
        this.pos++;
        continue;
      }
      if (next === '}') {
        this.pos++;
        return out;
      }
      this.fail('after object key:value pair');
    }
  }

  private parseArray(path: string, items: ShapeAt): JsonValue[] {
    this.pos++;
    const out: JsonValue[] = [];
    this.skipWhitespace();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipWhitespace();
      out.push(this.parseValue(`${path}[${out.length}]`, 'looking for beginning of value', items));
      this.skipWhitespace();
      const next = this.text[this.pos];
      if (next === ',') {
        this.pos++;
        continue;
      }
      if (next === ']') {
        this.pos++;
        return out;
      }
      this.fail('after array element');
    }
  }
}

/** Parses `text`; with the shape of the type it decodes into, also its strict errors as the decoder meets them. */
export function parseJsonStrict(text: string, shape?: StrictShape): Result<ParsedJson, string> {
  const parser = new Parser(text, shape);
  try {
    const value = parser.parseDocument();
    return ok({
      value,
      duplicates: parser.duplicates,
      duplicateOffsets: parser.duplicateOffsets,
      numbers: parser.numbers,
      strictErrors: shape === undefined ? undefined : parser.strictErrors,
    });
  } catch (e) {
    if (e instanceof SyntaxFailure) return err(e.message);
    throw e;
  }
}
