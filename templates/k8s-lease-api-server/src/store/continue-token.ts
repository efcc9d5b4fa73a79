// Continue tokens in the real server's format: base64 JSON {v, rv, start}, where start is the next key.
import type { JsonValue } from '../json.js';
import { isJsonObject, parseJson } from '../json.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';

export interface ContinuePosition {
  /** Snapshot resourceVersion; -1 continues at the latest state (after a 410). */
  rv: number;
  /** Key relative to the list's scope from which to continue (inclusive). */
  start: string;
}

export function encodeContinue(rv: number, lastKey: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start: `${lastKey}\u0000` })).toString('base64');
}

export function decodeContinue(token: string): Result<ContinuePosition, string> {
  let parsed: JsonValue;
  try {
    parsed = parseJson(Buffer.from(token, 'base64').toString('utf8'));
  } catch {
    return err('continue key is not valid: illegal base64 data or malformed JSON');
  }
  if (!isJsonObject(parsed) || parsed['v'] !== 'meta.k8s.io/v1') {
    return err('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  const rv = parsed['rv'];
  const start = parsed['start'];
  if (typeof rv !== 'number' || !Number.isInteger(rv) || rv === 0 || rv < -1) {
    return err('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  if (typeof start !== 'string' || start === '' || start.includes('..') || start.startsWith('/')) {
    return err('continue key is not valid: encoded start key empty');
  }
  return ok({ rv, start });
}
