// YAML bodies (application/yaml creates and updates, apply configurations) through the `yaml` package.
// kube-apiserver reads YAML with sigs.k8s.io/yaml, i.e. go-yaml v2 then a JSON conversion; what is
// hand-written here is only that conversion's Kubernetes behaviour: string keys, duplicate keys
// reported like the JSON path (last one wins), plain JSON values with "__proto__" as own data.
import type { Document, Node, ParsedNode, Tags } from 'yaml';
import { isAlias, isMap, isNode, isScalar, isSeq, parseAllDocuments, visit } from 'yaml';
import type { ParsedJson } from './json-parser.js';
import { parseJsonStrict } from './json-parser.js';
import type { JsonObject, JsonValue } from '../json.js';
import { MAX_NESTING_DEPTH, setOwn } from '../json.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';

export interface ParsedYaml {
  value: JsonValue;
  /** Paths of repeated keys (the last one wins), as the JSON parser reports them. */
  duplicates: string[];
  /**
   * The same repeats as go-yaml v2's strict decoding words them (decode.go d.mapping: `line N: key "k"
   * already set in map`, %#v of the key), which is how kube-apiserver reports YAML duplicates.
   */
  duplicateLines: string[];
}

/**
 * go-yaml v2's alias budget (decode.go allowedAliasRatio, the CVE-2019-11253 fix): once more than 100 of over
 * 1000 decoded nodes came from alias expansion, their share may be at most 99% up to 400,000 decoded nodes,
 * falling linearly to 10% at 4,000,000. Aliases stay legal, but a "billion laughs" stops within a few
 * thousand nodes and no document expands to more than ~4 million.
 */
const ALIAS_RATIO_RANGE_LOW = 400_000;
const ALIAS_RATIO_RANGE_HIGH = 4_000_000;

export function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= ALIAS_RATIO_RANGE_LOW) return 0.99;
  if (decodeCount >= ALIAS_RATIO_RANGE_HIGH) return 0.1;
  return 0.99 - (0.89 * (decodeCount - ALIAS_RATIO_RANGE_LOW)) / (ALIAS_RATIO_RANGE_HIGH - ALIAS_RATIO_RANGE_LOW);
}

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

/** How go-yaml's %#v prints a map key in its duplicate-key error: strings quoted, other scalars bare. */
function goKey(node: unknown): string {
  if (isScalar(node)) {
    const value = node.value;
    if (typeof value === 'string') return JSON.stringify(value);
    if (value === null || value === undefined) return '<nil>';
    return String(value);
  }
  return JSON.stringify(String(node));
}

/**
 * Each alias's target: the last node before it that defines its anchor (anchors may be redefined), found by
 * walking the document once in order.
 */
function aliasTargets(doc: Document.Parsed): Map<Node, Node> {
  const anchors = new Map<string, Node>();
  const targets = new Map<Node, Node>();
  visit(doc, (_key, node) => {
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (target !== undefined) targets.set(node, target);
    } else if (isNode(node) && node.anchor !== undefined) anchors.set(node.anchor, node);
  });
  return targets;
}

class Converter {
  readonly duplicates: string[] = [];
  readonly duplicateLines: string[] = [];
  private decoded = 0;
  private aliased = 0;
  /** The alias targets being expanded, to refuse one that contains itself as go-yaml does. */
  private readonly expanding = new Set<Node>();

  /** Every alias's anchored node, found in one pass (Alias.resolve searches the whole document per alias). */
  private readonly targets: Map<Node, Node>;

  constructor(
    doc: Document.Parsed,
    private readonly lineStarts: number[],
  ) {
    this.targets = aliasTargets(doc);
  }

  private fail(node: Node | undefined, message: string): never {
    throw new YamlFailure(`line ${lineOfOffset(node?.range?.[0] ?? 0, this.lineStarts)}: ${message}`);
  }

  private scalarValue(node: Node, value: unknown): JsonValue {
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
    // JSON has no NaN or infinities: sigs.k8s.io/yaml's JSON conversion fails on them too.
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    return this.fail(node, `cannot convert ${String(value)} to JSON`);
  }

  /** d.unmarshal's accounting: every decoded node counts, those reached through an alias count as aliased. */
  private count(viaAlias: boolean): void {
    this.decoded++;
    if (viaAlias) this.aliased++;
    if (this.aliased > 100 && this.decoded > 1000 && this.aliased / this.decoded > allowedAliasRatio(this.decoded))
      throw new YamlFailure('document contains excessive aliasing');
  }

  /** sigs.k8s.io/yaml turns scalar keys into their string form (1 → "1", true → "true"). */
  private key(node: unknown, viaAlias: boolean): string {
    this.count(viaAlias);
    if (node === null || node === undefined) return 'null';
    if (isScalar(node)) {
      const value = node.value;
      if (value === null) return 'null';
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
    }
    if (isAlias(node)) return this.key(this.resolve(node), true);
    return this.fail(node as Node, 'invalid map key: only scalar keys can be converted to JSON');
  }

  private resolve(node: Node): Node {
    const target = this.targets.get(node);
    if (target === undefined) return this.fail(node, 'unknown anchor referenced');
    return target;
  }

  value(node: unknown, path: string, depth: number, viaAlias: boolean): JsonValue {
    if (node === null || node === undefined) return null;
    const yamlNode = node as Node;
    if (depth > MAX_NESTING_DEPTH) this.fail(yamlNode, `exceeded max depth of ${MAX_NESTING_DEPTH}`);
    this.count(viaAlias);
    if (isAlias(node)) return this.expand(node, path, depth);
    if (isScalar(node)) return this.scalarValue(node, node.value);
    if (isMap(node)) {
      const out: JsonObject = {};
      for (const pair of node.items) {
        const key = this.key(pair.key, viaAlias);
        const path2 = childPath(path, key);
        if (Object.hasOwn(out, key)) {
          this.duplicates.push(path2);
          const keyNode = isNode(pair.key) ? pair.key : undefined;
          const line = lineOfOffset(keyNode?.range?.[0] ?? 0, this.lineStarts);
          this.duplicateLines.push(`line ${line}: key ${goKey(pair.key)} already set in map`);
        }
        setOwn(out, key, this.value(pair.value, path2, depth + 1, viaAlias));
      }
      return out;
    }
    if (isSeq(node)) return node.items.map((item, i) => this.value(item, `${path}[${i}]`, depth + 1, viaAlias));
    return this.fail(yamlNode, 'unsupported YAML node');
  }

  private expand(alias: Node, path: string, depth: number): JsonValue {
    const target = this.resolve(alias);
    if (this.expanding.has(target))
      throw new YamlFailure(`anchor '${isAlias(alias) ? alias.source : ''}' value contains itself`);
    this.expanding.add(target);
    const value = this.value(target, path, depth, true);
    this.expanding.delete(target);
    return value;
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

/** The 1-based line holding `offset` (binary search: a document may report many lines). */
function lineOfOffset(offset: number, starts: number[]): number {
  let low = 1;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((starts[mid] ?? Infinity) <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** The go-yaml duplicate-key lines of a JSON document read as YAML (JSON keys are strings). */
function jsonDuplicateLines(source: string, parsed: ParsedJson): string[] {
  const starts = lineStarts(source);
  return parsed.duplicateOffsets.map((offset) => {
    const line = lineOfOffset(offset, starts);
    return `line ${line}: key ${JSON.stringify(keyAt(source, offset))} already set in map`;
  });
}

/** The JSON string key starting at `offset` (the parser has already accepted it). */
function keyAt(source: string, offset: number): string {
  const literal = /"(?:[^"\\]|\\.)*"/y;
  literal.lastIndex = offset;
  const found = literal.exec(source);
  const parsed: unknown = found === null ? '' : JSON.parse(found[0]);
  return String(parsed);
}

/**
 * YAML that is JSON (what kubectl and most clients send) is read by the JSON parser: YAML 1.2 is a JSON
 * superset and go-yaml reads such flow documents alike, and the JSON parser is linear and several times
 * faster than composing a YAML document, whose cost grows with every node.
 */
function parseJsonCompatible(source: string): ParsedYaml | undefined {
  const first = source.trimStart()[0];
  if (first !== '{' && first !== '[') return undefined;
  const json = parseJsonStrict(source);
  if (!json.ok) return undefined;
  return {
    value: json.value.value,
    duplicates: json.value.duplicates,
    duplicateLines: jsonDuplicateLines(source, json.value),
  };
}

/** Parses the first YAML document (go-yaml's Unmarshal reads only the first); errors read "yaml: line N: …". */
export function parseYaml(source: string): Result<ParsedYaml, string> {
  const json = parseJsonCompatible(source);
  if (json !== undefined) return ok(json);
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
    if (doc === undefined) return ok({ value: null, duplicates: [], duplicateLines: [] });
    const starts = lineStarts(source);
    const problem = firstProblem(doc, starts);
    if (problem !== undefined) return err(`yaml: ${problem}`);
    const converter = new Converter(doc, starts);
    const contents: ParsedNode | null = doc.contents;
    const value = converter.value(contents, '', 1, false);
    return ok({ value, duplicates: converter.duplicates, duplicateLines: converter.duplicateLines });
  } catch (e) {
    if (e instanceof YamlFailure) return err(`yaml: ${e.message}`);
    // The yaml package's composer recurses per nesting level; a stack overflow is hostile nesting.
    if (e instanceof RangeError) return err(`yaml: exceeded max depth of ${MAX_NESTING_DEPTH}`);
    throw e;
  }
}
