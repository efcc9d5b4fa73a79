// A small YAML reader for the block-style documents people hand-write for apply (kubectl itself sends
// JSON, which is YAML too and takes the JSON path). Supports mappings, sequences, plain/quoted scalars,
// comments and empty or simple flow collections; anything fancier is reported as unsupported.
import type { JsonObject, JsonValue } from '../json.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';

interface Line {
  indent: number;
  text: string;
  number: number;
}

class YamlFailure {
  constructor(readonly message: string) {}
}

function stripComment(text: string): string {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '#' && (i === 0 || text[i - 1] === ' ' || text[i - 1] === '\t')) return text.slice(0, i);
  }
  return text;
}

function toLines(source: string): Line[] {
  const lines: Line[] = [];
  source.split(/\r?\n/).forEach((raw, i) => {
    const text = stripComment(raw).replace(/\s+$/, '');
    if (text.trim() === '' || text === '---' || text === '...') return;
    if (/^\t/.test(text)) throw new YamlFailure(`line ${i + 1}: found character that cannot start any token`);
    const indent = text.length - text.trimStart().length;
    lines.push({ indent, text: text.trimStart(), number: i + 1 });
  });
  return lines;
}

function splitFlow(inner: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let current = '';
  for (const ch of inner) {
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '[' || ch === '{') depth++;
    else if (ch === ']' || ch === '}') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
      continue;
    }
    current += ch;
  }
  if (current.trim() !== '') parts.push(current.trim());
  return parts;
}

function scalar(text: string, line: number): JsonValue {
  const t = text.trim();
  if (t.startsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(t);
      return String(parsed);
    } catch {
      throw new YamlFailure(`line ${line}: invalid double-quoted scalar`);
    }
  }
  if (t.startsWith("'")) {
    if (!t.endsWith("'") || t.length < 2) throw new YamlFailure(`line ${line}: unterminated single-quoted scalar`);
    return t.slice(1, -1).replace(/''/g, "'");
  }
  if (t.startsWith('[') && t.endsWith(']')) return splitFlow(t.slice(1, -1)).map((p) => scalar(p, line));
  if (t.startsWith('{') && t.endsWith('}')) {
    const out: JsonObject = {};
    for (const part of splitFlow(t.slice(1, -1))) {
      const colon = part.indexOf(':');
      if (colon < 0) throw new YamlFailure(`line ${line}: invalid flow mapping entry`);
      out[String(scalar(part.slice(0, colon), line))] = scalar(part.slice(colon + 1), line);
    }
    return out;
  }
  if (t.startsWith('&') || t.startsWith('*') || t.startsWith('!') || t === '|' || t === '>' || /^[|>][-+]?$/.test(t)) {
    throw new YamlFailure(`line ${line}: unsupported YAML construct ${JSON.stringify(t)}`);
  }
  if (t === '' || t === '~' || t === 'null' || t === 'Null' || t === 'NULL') return null;
  if (t === 'true' || t === 'True' || t === 'TRUE') return true;
  if (t === 'false' || t === 'False' || t === 'FALSE') return false;
  if (/^[-+]?\d+$/.test(t)) return Number(t);
  if (/^[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$/.test(t)) return Number(t);
  return t;
}

/** Finds "key: value" splitting on the first ": " (or trailing ":") outside quotes. */
function splitKey(text: string): { key: string; rest: string } | undefined {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === ':' && (i === text.length - 1 || text[i + 1] === ' ')) return { key: text.slice(0, i), rest: text.slice(i + 1).trim() };
  }
  return undefined;
}

class YamlParser {
  private pos = 0;
  readonly duplicates: string[] = [];

  constructor(private readonly lines: Line[]) {}

  parseDocument(): JsonValue {
    const first = this.lines[0];
    if (first === undefined) return null;
    const value = this.block(first.indent, '');
    const extra = this.lines[this.pos];
    if (extra !== undefined) throw new YamlFailure(`line ${extra.number}: did not find expected key`);
    return value;
  }

  private block(indent: number, path: string): JsonValue {
    const line = this.lines[this.pos];
    if (line === undefined) return null;
    if (line.text === '-' || line.text.startsWith('- ')) return this.sequence(indent, path);
    if (splitKey(line.text) !== undefined) return this.mapping(indent, path);
    this.pos++;
    return scalar(line.text, line.number);
  }

  private valueAfterKey(rest: string, parentIndent: number, path: string, lineNumber: number): JsonValue {
    if (rest !== '') return scalar(rest, lineNumber);
    const next = this.lines[this.pos];
    if (next === undefined) return null;
    // A sequence may sit at the same indentation as its key, as kubectl and most people write it.
    if (next.indent > parentIndent || (next.indent === parentIndent && (next.text === '-' || next.text.startsWith('- ')))) {
      return this.block(next.indent, path);
    }
    return null;
  }

  private mapping(indent: number, path: string): JsonObject {
    const out: JsonObject = {};
    for (;;) {
      const line = this.lines[this.pos];
      if (line === undefined || line.indent < indent) return out;
      if (line.indent > indent) throw new YamlFailure(`line ${line.number}: mapping values are not allowed in this context`);
      if (line.text.startsWith('- ')) return out;
      const kv = splitKey(line.text);
      if (kv === undefined) throw new YamlFailure(`line ${line.number}: could not find expected ':'`);
      this.pos++;
      const key = String(scalar(kv.key, line.number));
      const childPath = path === '' ? key : `${path}.${key}`;
      if (Object.hasOwn(out, key)) this.duplicates.push(childPath);
      out[key] = this.valueAfterKey(kv.rest, indent, childPath, line.number);
    }
  }

  private sequence(indent: number, path: string): JsonValue[] {
    const out: JsonValue[] = [];
    for (;;) {
      const line = this.lines[this.pos];
      if (line === undefined || line.indent !== indent || !(line.text === '-' || line.text.startsWith('- '))) return out;
      const itemPath = `${path}[${out.length}]`;
      const rest = line.text === '-' ? '' : line.text.slice(2);
      if (rest.trim() === '') {
        this.pos++;
        const next = this.lines[this.pos];
        out.push(next !== undefined && next.indent > indent ? this.block(next.indent, itemPath) : null);
      } else if (splitKey(rest) !== undefined && !rest.startsWith('"') && !rest.startsWith("'") && !rest.startsWith('{')) {
        // "- key: value" starts a mapping whose keys align with the text after the dash.
        const itemIndent = indent + 2 + (rest.length - rest.trimStart().length);
        this.lines[this.pos] = { indent: itemIndent, text: rest.trimStart(), number: line.number };
        out.push(this.mapping(itemIndent, itemPath));
      } else {
        this.pos++;
        out.push(scalar(rest, line.number));
      }
    }
  }
}

export interface ParsedYaml {
  value: JsonValue;
  duplicates: string[];
}

export function parseYaml(source: string): Result<ParsedYaml, string> {
  try {
    const parser = new YamlParser(toLines(source));
    return ok({ value: parser.parseDocument(), duplicates: parser.duplicates });
  } catch (e) {
    if (e instanceof YamlFailure) return err(`yaml: ${e.message}`);
    throw e;
  }
}
