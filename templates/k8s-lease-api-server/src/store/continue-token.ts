// Continue tokens as k8s.io/apiserver/pkg/storage/continue.go makes and reads them (hand-written: it encodes
// kube-apiserver's behaviour). EncodeContinue: base64.RawURLEncoding of json.Marshal(continueToken{v, rv, start}),
// start being the key just after the page's last one relative to the list's key prefix. DecodeContinue: the same
// decoding, the version checked, resourceVersion 0 and an empty start key refused, and a start key refused when
// path.Clean would change it (the path-traversal defence), so a continue never ranges outside the list's prefix.
import { parseJsonStrict } from '../decode/json-parser.js';
import type { JsonValue } from '../json.js';
import { isJsonObject } from '../json.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { parseInt64 } from '../selectors/strconv.js';

export interface ContinuePosition {
  /** Snapshot resourceVersion; negative continues at the latest state (etcd3/store.go: continueRV < 0). */
  rv: number;
  /** Key relative to the list's key prefix from which to continue (inclusive); '' is the prefix itself. */
  start: string;
}

const API_VERSION = 'meta.k8s.io/v1';
const INVALID = 'continue key is not valid';
/** continue.go's errors, as their text reaches the client in the 400's message. */
export const ERR_INVALID_START_RV: string = `${INVALID}: incorrect encoded start resourceVersion (version ${API_VERSION})`;
export const ERR_EMPTY_START_KEY: string = `${INVALID}: encoded start key empty (version ${API_VERSION})`;
const ERR_UNRECOGNIZED_VERSION = `${INVALID}: server does not recognize this encoded version`;

export function encodeContinue(rv: number, lastKey: string): string {
  return Buffer.from(JSON.stringify({ v: API_VERSION, rv, start: `${lastKey}\u0000` })).toString('base64url');
}

export function decodeContinue(token: string): Result<ContinuePosition, string> {
  const bytes = rawUrlBase64(token);
  if (!bytes.ok) return err(`${INVALID}: ${bytes.error}`);
  // The strict parser words syntax errors as Go's json.SyntaxError and keeps the text of numbers that are not
  // plain int64 literals, which json.Unmarshal refuses for an int64 field.
  const parsed = parseJsonStrict(bytes.value.toString('utf8'));
  if (!parsed.ok) return err(`${INVALID}: ${parsed.error}`);
  const fields = continueTokenFields(parsed.value.value, parsed.value.numbers);
  if (!fields.ok) return err(`${INVALID}: ${fields.error}`);
  const { v, rv, start } = fields.value;
  // `%w %v`: the version follows after one space, an empty one leaving the space.
  if (v !== API_VERSION) return err(`${ERR_UNRECOGNIZED_VERSION} ${v}`);
  if (rv === 0) return err(ERR_INVALID_START_RV);
  if (start === '') return err(ERR_EMPTY_START_KEY);
  const key = start.startsWith('/') ? start : `/${start}`;
  const cleaned = cleanRootedPath(key);
  if (cleaned !== key) return err(`${INVALID}: ${start}`);
  return ok({ rv, start: cleaned.slice(1) });
}

/**
 * Go's base64.RawURLEncoding.DecodeString: the URL-safe alphabet without padding; `\r` and `\n` are skipped,
 * anything else outside the alphabet (padding included) and a lone last character are CorruptInputError.
 */
function rawUrlBase64(text: string): Result<Buffer, string> {
  let data = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\r' || c === '\n') continue;
    if (!/[A-Za-z0-9_-]/.test(c)) return err(`illegal base64 data at input byte ${i}`);
    data += c;
  }
  if (data.length % 4 === 1) return err(`illegal base64 data at input byte ${text.length - 1}`);
  return ok(Buffer.from(data, 'base64url'));
}

/**
 * json.Unmarshal into continueToken{APIVersion `v`, ResourceVersion `rv` int64, StartKey `start`}: keys match
 * the field names case-insensitively, a later key overrides an earlier one, null leaves a field as it was, other
 * keys are ignored, and a value of the wrong type is an UnmarshalTypeError (worded as Go words it).
 */
function continueTokenFields(
  value: JsonValue,
  numbers: ReadonlyMap<string, string>,
): Result<{ v: string; rv: number; start: string }, string> {
  const fields = { v: '', rv: 0, start: '' };
  // A JSON null decodes into the struct as nothing at all.
  if (value === null) return ok(fields);
  if (!isJsonObject(value))
    return err(`json: cannot unmarshal ${goJsonType(value)} into Go value of type storage.continueToken`);
  for (const [name, field] of Object.entries(value)) {
    const lower = name.toLowerCase();
    if ((lower !== 'v' && lower !== 'rv' && lower !== 'start') || field === null) continue;
    const mismatch = (goType: string): string =>
      `json: cannot unmarshal ${goJsonType(field, numbers.get(name))} into Go struct field continueToken.${lower} of type ${goType}`;
    if (lower === 'rv') {
      if (typeof field !== 'number') return err(mismatch('int64'));
      // strconv.ParseInt on the literal: `1.0` and `1e3` are refused, as is anything outside int64.
      const literal = numbers.get(name);
      if (literal !== undefined && !parseInt64(literal).ok)
        return err(`json: cannot unmarshal number ${literal} into Go struct field continueToken.rv of type int64`);
      fields.rv = field;
    } else {
      if (typeof field !== 'string') return err(mismatch('string'));
      fields[lower] = field;
    }
  }
  return ok(fields);
}

/** How Go's UnmarshalTypeError names a JSON value: its kind, and a number's literal text. */
function goJsonType(value: JsonValue, literal?: string): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return `number ${literal ?? String(value)}`;
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'string' ? 'string' : 'object';
}

/**
 * Go's path.Clean for a path that starts with `/`: empty and `.` elements dropped, each `..` removing the element
 * before it and never climbing above the root, no trailing slash; the root alone is `/`.
 */
export function cleanRootedPath(path: string): string {
  const out: string[] = [];
  for (const element of path.split('/')) {
    if (element === '' || element === '.') continue;
    if (element === '..') out.pop();
    else out.push(element);
  }
  return `/${out.join('/')}`;
}
