// One entry for turning a JSON or YAML body into a JSON value, used both on the event loop and in the
// parse worker (parse-worker.ts), so both read a body the same way.
import type { JsonValue } from '../json.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { parseJsonStrict } from './json-parser.js';
import type { StrictShape } from './strict-shape.js';
import { parseYaml } from './yaml.js';

export type BodyFormat = 'json' | 'yaml';

export interface ParsedText {
  value: JsonValue;
  /** Paths of repeated keys, as the JSON parser reports them. */
  duplicates: string[];
  /** JSON bodies: the literal text of numbers that are not plain integers, by path (ParsedJson.numbers). */
  numbers?: ReadonlyMap<string, string> | undefined;
  /** YAML bodies: the repeated keys as go-yaml words them. */
  duplicateLines?: string[] | undefined;
  /** JSON bodies parsed with the decoded type's shape: the strict errors in the decoder's order (ParsedJson). */
  strictErrors?: string[] | undefined;
}

/**
 * Parses `text` as `format`; the error is the parser's own message (callers add kube-apiserver's prefix).
 * `shape`, the decoded type's, has a JSON body's strict errors collected as the decoder meets them.
 */
export function parseTextSync(text: string, format: BodyFormat, shape?: StrictShape): Result<ParsedText, string> {
  if (format === 'json') {
    const json = parseJsonStrict(text, shape);
    if (!json.ok) return json;
    const parsed: ParsedText = {
      value: json.value.value,
      duplicates: json.value.duplicates,
      numbers: json.value.numbers,
    };
    if (json.value.strictErrors !== undefined) parsed.strictErrors = json.value.strictErrors;
    return ok(parsed);
  }
  const yaml = parseYaml(text);
  if (!yaml.ok) return err(yaml.error);
  return ok({ value: yaml.value.value, duplicates: yaml.value.duplicates, duplicateLines: yaml.value.duplicateLines });
}

/** What crosses from the worker: the value as JSON text (JSON.parse on the event loop is native and linear). */
export type WireResult =
  | {
      ok: true;
      json: string;
      duplicates: string[];
      numbers?: [string, string][] | undefined;
      duplicateLines?: string[] | undefined;
      strictErrors?: string[] | undefined;
    }
  | { ok: false; error: string };

export function toWire(result: Result<ParsedText, string>): WireResult {
  if (!result.ok) return { ok: false, error: result.error };
  const { value, duplicates, numbers, duplicateLines, strictErrors } = result.value;
  const wire: WireResult = { ok: true, json: JSON.stringify(value), duplicates };
  if (numbers !== undefined) wire.numbers = [...numbers];
  if (duplicateLines !== undefined) wire.duplicateLines = duplicateLines;
  if (strictErrors !== undefined) wire.strictErrors = strictErrors;
  return wire;
}
