// YAML bodies (application/yaml creates and updates, apply configurations) through the `yaml` package.
// kube-apiserver reads YAML with sigs.k8s.io/yaml, i.e. go-yaml v2 then a JSON conversion; what is
// hand-written here is only that conversion's Kubernetes behaviour: string keys, duplicate keys
// reported like the JSON path (last one wins), plain JSON values with "__proto__" as own data.
import type { Document, Node, ParsedNode, Tags } from 'yaml';
import { isAlias, isMap, isScalar, isSeq, parseAllDocuments } from 'yaml';
import type { JsonObject, JsonValue } from '../json.js';
import { MAX_NESTING_DEPTH, setOwn } from '../json.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';

export interface ParsedYaml {
  value: JsonValue;
  duplicates: string[];
}

/**
 * Aliases are legal YAML (go-yaml resolves them), but each one re-expands its anchor: a few nested
 * aliases make a billion nodes ("billion laughs"). Both the aliases and what they expand to are capped.
 */
export const MAX_YAML_ALIASES = 20;
export const MAX_YAML_ALIAS_NODES = 10_000;

const CORE_TAGS = new Set(['map', 'seq', 'str', 'null', 'bool', 'int', 'float'].map((t) => `tag:yaml.org,2002:${t}`));

/**
 * go-yaml v2 resolves plain scalars by YAML 1.1 rules, so `yes`/`no`/`on`/`off` are booleans and `0777`
 * is octal there: a manifest kubectl sends means the same here. go-yaml v2 has no sexagesimal numbers,
 * and its timestamps, binary, sets and ordered maps never survive the JSON conversion, so those YAML 1.1
 * types are dropped and such scalars stay strings (or fail as unknown tags).
 */
function goYamlTags(tags: Tags): Tags {
  return tags.filter((tag) => typeof tag !== 'string' && CORE_TAGS.has(tag.tag) && tag.format !== 'TIME');
}

class YamlFailure {
  constructor(readonly message: string) {}
}

function childPath(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

class Converter {
  readonly duplicates: string[] = [];
  private aliasNodes = 0;
  private aliases = 0;

  constructor(
    private readonly doc: Document.Parsed,
    private readonly lineStarts: number[],
  ) {}

  private fail(node: Node, message: string): never {
    throw new YamlFailure(`line ${lineOfOffset(node.range?.[0] ?? 0, this.lineStarts)}: ${message}`);
  }

  private scalarValue(node: Node, value: unknown): JsonValue {
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
    // JSON has no NaN or infinities: sigs.k8s.io/yaml's JSON conversion fails on them too.
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    return this.fail(node, `cannot convert ${String(value)} to JSON`);
  }

  /** sigs.k8s.io/yaml turns scalar keys into their string form (1 → "1", true → "true"). */
  private key(node: unknown): string {
    if (node === null || node === undefined) return 'null';
    if (isScalar(node)) {
      const value = node.value;
      if (value === null) return 'null';
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
    }
    if (isAlias(node)) return this.key(this.resolve(node));
    return this.fail(node as Node, 'invalid map key: only scalar keys can be converted to JSON');
  }

  private resolve(node: Node): Node {
    if (++this.aliases > MAX_YAML_ALIASES) this.fail(node, 'document contains excessive aliasing');
    const target = isAlias(node) ? node.resolve(this.doc) : undefined;
    if (target === undefined) return this.fail(node, 'unknown anchor referenced');
    return target;
  }

  value(node: unknown, path: string, depth: number, viaAlias: boolean): JsonValue {
    if (node === null || node === undefined) return null;
    const yamlNode = node as Node;
    if (depth > MAX_NESTING_DEPTH) this.fail(yamlNode, `exceeded max depth of ${MAX_NESTING_DEPTH}`);
    if (viaAlias && ++this.aliasNodes > MAX_YAML_ALIAS_NODES)
      this.fail(yamlNode, 'document contains excessive aliasing');
    if (isAlias(node)) return this.value(this.resolve(node), path, depth, true);
    if (isScalar(node)) return this.scalarValue(node, node.value);
    if (isMap(node)) {
      const out: JsonObject = {};
      for (const pair of node.items) {
        const key = this.key(pair.key);
        const path2 = childPath(path, key);
        if (Object.hasOwn(out, key)) this.duplicates.push(path2);
        setOwn(out, key, this.value(pair.value, path2, depth + 1, viaAlias));
      }
      return out;
    }
    if (isSeq(node)) return node.items.map((item, i) => this.value(item, `${path}[${i}]`, depth + 1, viaAlias));
    return this.fail(yamlNode, 'unsupported YAML node');
  }
}

/** Offsets where each line starts, indexed by 1-based line number. */
function lineStarts(source: string): number[] {
  const starts = [0, 0];
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function firstProblem(doc: Document.Parsed, starts: number[]): string | undefined {
  const error = doc.errors[0];
  // The yaml package composes nested collections recursively and records a stack overflow as a parse error.
  if (error !== undefined && /call stack/i.test(error.message))
    return `line ${lineOfOffset(error.pos[0], starts)}: exceeded max depth of ${MAX_NESTING_DEPTH}`;
  if (error !== undefined)
    return `line ${error.linePos?.[0].line ?? lineOfOffset(error.pos[0], starts)}: ${error.message}`;
  // Custom tags would make values this server cannot mirror; the yaml package only warns about them.
  const tag = doc.warnings.find((w) => w.code === 'TAG_RESOLVE_FAILED');
  return tag === undefined
    ? undefined
    : `line ${tag.linePos?.[0].line ?? lineOfOffset(tag.pos[0], starts)}: ${tag.message}`;
}

function lineOfOffset(offset: number, starts: number[]): number {
  let line = 1;
  while (line + 1 < starts.length && (starts[line + 1] ?? Infinity) <= offset) line++;
  return line;
}

/** Parses the first YAML document (go-yaml's Unmarshal reads only the first); errors read "yaml: line N: …". */
export function parseYaml(source: string): Result<ParsedYaml, string> {
  try {
    const docs = parseAllDocuments(source, {
      version: '1.1',
      schema: 'yaml-1.1',
      customTags: goYamlTags,
      merge: false,
      uniqueKeys: false,
      prettyErrors: false,
      keepSourceTokens: false,
    });
    const doc: Document.Parsed | undefined = Array.isArray(docs) ? docs[0] : undefined;
    if (doc === undefined) return ok({ value: null, duplicates: [] });
    const starts = lineStarts(source);
    const problem = firstProblem(doc, starts);
    if (problem !== undefined) return err(`yaml: ${problem}`);
    const converter = new Converter(doc, starts);
    const contents: ParsedNode | null = doc.contents;
    return ok({ value: converter.value(contents, '', 1, false), duplicates: converter.duplicates });
  } catch (e) {
    if (e instanceof YamlFailure) return err(`yaml: ${e.message}`);
    // The yaml package's composer recurses per nesting level; a stack overflow is hostile nesting.
    if (e instanceof RangeError) return err(`yaml: exceeded max depth of ${MAX_NESTING_DEPTH}`);
    throw e;
  }
}
