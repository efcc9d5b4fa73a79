// Bodies are parsed in place when small and in a worker thread when large (so one huge body cannot stall the
// event loop); either way the result is the same as parsing in place. At most one worker runs and eight wait;
// a request beyond that is refused as busy (answered 429 by the caller).
import { describe, expect, it } from 'vitest';
import {
  INLINE_JSON_CHARS,
  INLINE_YAML_CHARS,
  MAX_WAITING,
  parseText,
  parsesInline,
} from '../../../templates/k8s-lease-api-server/src/decode/parse-pool.js';
import { parseTextSync } from '../../../templates/k8s-lease-api-server/src/decode/parse-text.js';

/** A JSON body of more than `chars` characters with a repeated key and a decimal literal. */
function largeJson(chars: number): string {
  return `{"spec":{"holderIdentity":"a","holderIdentity":"${'x'.repeat(chars)}"},"n":1.50}`;
}

describe('parsesInline', () => {
  it('parses JSON up to 256 KiB and YAML up to 32 KiB without aliases in place', () => {
    expect(INLINE_JSON_CHARS).toBe(256 * 1024);
    expect(INLINE_YAML_CHARS).toBe(32 * 1024);
    expect(parsesInline('x'.repeat(INLINE_JSON_CHARS), 'json')).toBe(true);
    expect(parsesInline('x'.repeat(INLINE_JSON_CHARS + 1), 'json')).toBe(false);
    expect(parsesInline('a: 1', 'yaml')).toBe(true);
    expect(parsesInline('a: &x 1\nb: *x', 'yaml')).toBe(false);
    expect(parsesInline('x'.repeat(INLINE_YAML_CHARS + 1), 'yaml')).toBe(false);
  });
});

describe('parseText', () => {
  it('answers a small body in place, a syntax error as such', async () => {
    expect(await parseText('{"a":1}', 'json')).toEqual(parseTextSync('{"a":1}', 'json'));
    expect(await parseText('{"a":', 'json')).toEqual({
      ok: false,
      error: { kind: 'syntax', message: 'unexpected end of JSON input' },
    });
  });

  it('answers a large body from the worker exactly as in place', async () => {
    const json = largeJson(INLINE_JSON_CHARS);
    expect(await parseText(json, 'json')).toEqual(parseTextSync(json, 'json'));
    const yaml = `a: &x 1\nb: *x\nb: 2\n`;
    expect(await parseText(yaml, 'yaml')).toEqual(parseTextSync(yaml, 'yaml'));
    expect(await parseText(`${json}x`, 'json')).toEqual({
      ok: false,
      error: { kind: 'syntax', message: "invalid character 'x' after top-level value" },
    });
  }, 30_000);

  it('refuses as busy what finds the running worker and a full line', async () => {
    const json = largeJson(INLINE_JSON_CHARS);
    const results = await Promise.all(Array.from({ length: MAX_WAITING + 2 }, () => parseText(json, 'json')));
    expect(results.filter((r) => !r.ok && r.error.kind === 'busy')).toHaveLength(1);
    expect(results.filter((r) => r.ok)).toHaveLength(MAX_WAITING + 1);
  }, 60_000);
});
