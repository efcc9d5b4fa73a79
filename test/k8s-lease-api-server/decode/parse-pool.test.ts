// Bodies are parsed in place when small and in a worker thread when large (so one huge body cannot stall the
// event loop); either way the result is the same as parsing in place. The workers are seats shared fairly
// between users, as API Priority and Fairness shares an apiserver's seats between flows
// (k8s.io/apiserver/pkg/util/flowcontrol/fairqueuing/queueset/queueset.go; flow distinguisher "ByUser"):
// one user's backlog neither fills another's queue nor keeps another's body waiting, and a user whose own
// queue is full is refused busy (answered 429 by the caller, see operations/decode-body.test.ts).
import { describe, expect, it } from 'vitest';
import {
  INLINE_JSON_CHARS,
  INLINE_PROTOBUF_BYTES,
  INLINE_YAML_CHARS,
  MAX_WAITING,
  decodeProtobuf,
  parseLoad,
  parseText,
  parsesInline,
  runInWorker,
} from '../../../templates/k8s-lease-api-server/src/decode/parse-pool.js';
import { parseTextSync } from '../../../templates/k8s-lease-api-server/src/decode/parse-text.js';
import { LEASE_RESOURCE } from '../../../templates/k8s-lease-api-server/src/lease-meta.js';
import { encodeMessage, envelope } from '../../../templates/k8s-lease-api-server/src/protobuf/encode.js';
import { decodeResourceBody } from '../../../templates/k8s-lease-api-server/src/protobuf/request-body.js';

/** A JSON body of more than `chars` characters with a repeated key and a decimal literal. */
function largeJson(chars: number): string {
  return `{"spec":{"holderIdentity":"a","holderIdentity":"${'x'.repeat(chars)}"},"n":1.50}`;
}

/** A protobuf Lease body over the inline limit: its holderIdentity is `chars` long. */
function largeProtobuf(chars: number): Buffer {
  const raw = encodeMessage('Lease', { metadata: { name: 'big' }, spec: { holderIdentity: 'h'.repeat(chars) } });
  return envelope({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' }, raw);
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
    expect(await parseText('{"a":1}', 'json', 'u')).toEqual(parseTextSync('{"a":1}', 'json'));
    expect(await parseText('{"a":', 'json', 'u')).toEqual({
      ok: false,
      error: { kind: 'syntax', message: 'unexpected end of JSON input' },
    });
  });

  it('answers a large body from the worker exactly as in place', async () => {
    const json = largeJson(INLINE_JSON_CHARS);
    expect(await parseText(json, 'json', 'u')).toEqual(parseTextSync(json, 'json'));
    const yaml = `a: &x 1\nb: *x\nb: 2\n`;
    expect(await parseText(yaml, 'yaml', 'u')).toEqual(parseTextSync(yaml, 'yaml'));
    expect(await parseText(`${json}x`, 'json', 'u')).toEqual({
      ok: false,
      error: { kind: 'syntax', message: "invalid character 'x' after top-level value" },
    });
  }, 30_000);

  it("refuses as busy what finds the user's running parse and full line, whatever other users queue", async () => {
    const json = largeJson(INLINE_JSON_CHARS);
    const flood = Array.from({ length: MAX_WAITING + 2 }, () => parseText(json, 'json', 'flooder'));
    // The flooder's line is full, yet another user's body is taken (queueset rejects per queue, not globally).
    const other = parseText(json, 'json', 'other');
    const results = await Promise.all(flood);
    expect(results.filter((r) => !r.ok && r.error.kind === 'busy')).toHaveLength(1);
    expect(results.filter((r) => r.ok)).toHaveLength(MAX_WAITING + 1);
    expect((await other).ok).toBe(true);
    expect(parseLoad()).toEqual({ running: 0, waiting: 0 });
  }, 120_000);

  it("does not keep one user's body waiting behind another user's backlog", async () => {
    const json = largeJson(INLINE_JSON_CHARS);
    const order: string[] = [];
    const tagged = (flow: string, i: number): Promise<void> =>
      parseText(json, 'json', flow).then((r) => {
        expect(r.ok).toBe(true);
        order.push(`${flow}${i}`);
      });
    const backlog = Array.from({ length: 4 }, (_, i) => tagged('flooder', i));
    const other = tagged('other', 0);
    await Promise.all([...backlog, other]);
    // The other user's body takes the free seat at once: it finishes before the flooder's third body
    // (which cannot start until two of the flooder's have run one after the other), however loaded the machine.
    expect(order.indexOf('other0')).toBeLessThan(order.indexOf('flooder2'));
  }, 120_000);
});

describe('decodeProtobuf', () => {
  it('decodes a small body in place and a large one in the worker, alike', async () => {
    const small = largeProtobuf(10);
    const target = { kind: 'resource', resource: LEASE_RESOURCE } as const;
    expect(await decodeProtobuf(small, target, 'u')).toEqual(decodeResourceBody(small, LEASE_RESOURCE));
    const large = largeProtobuf(INLINE_PROTOBUF_BYTES);
    expect(large.length).toBeGreaterThan(INLINE_PROTOBUF_BYTES);
    const decoded = await decodeProtobuf(large, target, 'u');
    expect(decoded).toEqual(decodeResourceBody(large, LEASE_RESOURCE));
    expect(decoded.ok && decoded.value.value['spec']).toEqual({ holderIdentity: 'h'.repeat(INLINE_PROTOBUF_BYTES) });
  }, 30_000);

  it("answers the decoder's refusal from the worker as in place", async () => {
    // A body without the k8s magic (rest.go transformDecodeError's "the object provided is unrecognized").
    const garbage = Buffer.alloc(INLINE_PROTOBUF_BYTES + 1, 0x41);
    const inPlace = decodeResourceBody(garbage, LEASE_RESOURCE);
    expect(inPlace.ok).toBe(false);
    expect(await decodeProtobuf(garbage, { kind: 'resource', resource: LEASE_RESOURCE }, 'u')).toEqual({
      ok: false,
      error: { kind: 'refused', status: inPlace.ok ? undefined : inPlace.error },
    });
  }, 30_000);
});

describe('runInWorker', () => {
  it('answers a parse that outgrows the heap as too large, not as a failure', async () => {
    // ~190,000 one-character YAML nodes: the yaml package needs far more than 64 MB to compose them.
    const yaml = `${Array.from({ length: 190_000 }, (_, i) => `- ${i % 10}`).join('\n')}\n`;
    const small = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };
    // The same heap holds the worker and a small body's parse: what it cannot hold is the large one.
    expect(await runInWorker({ kind: 'text', text: '- 1\n', format: 'yaml', shape: undefined }, small)).toMatchObject({
      ok: true,
    });
    expect(await runInWorker({ kind: 'text', text: yaml, format: 'yaml', shape: undefined }, small)).toEqual({
      ok: false,
      error: { kind: 'tooLarge' },
    });
  }, 60_000);
});
