// The server's protobuf codec and its HTTP surface: JSON → protobuf → JSON identity for Leases of every shape,
// gogo's decode errors as kube-apiserver quotes them, TypeMeta checks, 415s, output negotiation, watch frames
// and PartialObjectMetadata. Expected texts come from k8s.io/apimachinery/pkg/runtime/serializer/protobuf
// (Serializer.Decode), the gogo-generated Unmarshal methods of k8s.io/api and k8s.io/apimachinery
// (generated.pb.go), and k8s.io/apiserver/pkg/endpoints/handlers (rest.go transformDecodeError, delete.go,
// negotiation/negotiate.go, response.go).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { decodeMessage } from '../../../templates/k8s-lease-api-server/src/protobuf/decode.js';
import { encodeMessage } from '../../../templates/k8s-lease-api-server/src/protobuf/encode.js';
import {
  bytes,
  concat,
  envelope,
  frames,
  int,
  msg,
  openEnvelope,
  readStatus,
  repeat,
  str,
  sub,
  text,
  timestamp,
  varint,
} from '../helpers/protobuf-wire.js';
import { NS_BASE, api, create, lease, openApi130, start } from '../helpers.js';
import { seededRandom } from '../../helpers/seeded-random.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const EMPTY = new Uint8Array(0);

/** Canonical stored Leases (no nulls, no zero omitempty values): each must survive JSON → protobuf → JSON unchanged. */
const LEASES: JsonObject[] = [
  { metadata: { name: 'empty' }, spec: {} },
  {
    metadata: {
      name: 'full',
      generateName: 'full-',
      namespace: 'default',
      selfLink: '/x',
      uid: '6f1e5f0e-1b7e-4d2c-9b1a-000000000001',
      resourceVersion: '42',
      generation: 2 ** 53 - 1,
      creationTimestamp: '2024-02-29T23:59:59Z',
      deletionTimestamp: '9999-12-31T23:59:59Z',
      deletionGracePeriodSeconds: 0,
      labels: { 'app.kubernetes.io/name': 'x', '': 'empty-key', ключ: 'значение 🚀' },
      annotations: { note: '', 'z/y': '\u0000\u00e9\ud83d\ude00' },
      ownerReferences: [
        { apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u1', controller: true, blockOwnerDeletion: false },
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: '', uid: '' },
      ],
      finalizers: ['a/b', ''],
      managedFields: [
        {
          manager: 'kubectl',
          operation: 'Apply',
          apiVersion: 'coordination.k8s.io/v1',
          time: '1970-01-01T00:00:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:spec': { 'f:holderIdentity': {}, '.': {} }, 'f:metadata': { 'f:labels': { 'f:ключ': {} } } },
          subresource: 'status',
        },
        { manager: 'm' },
      ],
    },
    spec: {
      holderIdentity: '',
      leaseDurationSeconds: 2147483647,
      acquireTime: '0001-01-01T00:00:00.000001Z',
      renewTime: '2026-11-26T12:00:00.999999Z',
      leaseTransitions: -2147483648,
      strategy: 'OldestEmulationVersion',
      preferredHolder: 'holder ✓',
    },
  },
  {
    metadata: { name: 'times' },
    spec: { acquireTime: '1969-12-31T23:59:59.000001Z', renewTime: '0000-01-01T00:00:00.000000Z' },
  },
];

const WORDS = ['a', 'lease', 'ключ', '🚀', 'x/y', ' ', '\u0000', 'é', '\uffff', 'kubernetes.io/name'];
const MIN_MS = Date.parse('0001-01-01T00:00:01Z');
const MAX_MS = Date.parse('9999-12-31T23:59:59Z');

/** A random canonical Lease: omitempty value fields never zero, pointer fields anything, times in range. */
function randomLease(random: () => number): JsonObject {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const maybe = (p = 0.5): boolean => random() < p;
  const word = (): string => Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(WORDS)).join('');
  const int32 = (): number => pick([0, 1, -1, 2147483647, -2147483648, Math.floor(random() * 2 ** 32) - 2 ** 31]);
  const int64 = (): number => pick([1, -1, 2 ** 53 - 1, -(2 ** 53 - 1), Math.floor(random() * 2 ** 40)]);
  const iso = (): string => new Date(MIN_MS + Math.floor(random() * (MAX_MS - MIN_MS))).toISOString();
  const time = (): string => `${iso().slice(0, 19)}Z`;
  const micro = (): string => `${iso().slice(0, 23)}${String(Math.floor(random() * 1000)).padStart(3, '0')}Z`;
  const map = (): JsonObject =>
    Object.fromEntries(Array.from({ length: 1 + Math.floor(random() * 3) }, () => [word(), maybe(0.2) ? '' : word()]));
  const metadata: JsonObject = { name: word() };
  if (maybe()) metadata['namespace'] = word();
  if (maybe()) metadata['uid'] = word();
  if (maybe()) metadata['resourceVersion'] = String(1 + Math.floor(random() * 1e6));
  if (maybe()) metadata['generation'] = int64();
  if (maybe()) metadata['creationTimestamp'] = time();
  if (maybe(0.2)) metadata['deletionTimestamp'] = time();
  if (maybe(0.2)) metadata['deletionGracePeriodSeconds'] = pick([0, ...[int64()]]);
  if (maybe()) metadata['labels'] = map();
  if (maybe()) metadata['annotations'] = map();
  if (maybe(0.3))
    metadata['ownerReferences'] = [
      {
        apiVersion: maybe() ? word() : '',
        kind: word(),
        name: word(),
        uid: '',
        ...(maybe() ? { controller: maybe() } : {}),
      },
    ];
  if (maybe(0.3)) metadata['finalizers'] = [word(), ''];
  if (maybe(0.4))
    metadata['managedFields'] = [
      {
        manager: word(),
        operation: pick(['Apply', 'Update']),
        ...(maybe() ? { time: time() } : {}),
        ...(maybe() ? { fieldsType: 'FieldsV1', fieldsV1: { [`f:${word()}`]: { '.': {}, [`k:${word()}`]: {} } } } : {}),
      },
    ];
  const spec: JsonObject = {};
  if (maybe()) spec['holderIdentity'] = maybe(0.2) ? '' : word();
  if (maybe()) spec['leaseDurationSeconds'] = int32();
  if (maybe()) spec['acquireTime'] = micro();
  if (maybe()) spec['renewTime'] = micro();
  if (maybe()) spec['leaseTransitions'] = int32();
  if (maybe(0.3)) spec['strategy'] = word();
  if (maybe(0.3)) spec['preferredHolder'] = maybe(0.2) ? '' : word();
  return { metadata, spec };
}

describe('protobuf codec', () => {
  it.each(LEASES.map((l) => [String((l['metadata'] as JsonObject)['name']), l] as const))(
    'round-trips the Lease %s: JSON → protobuf → JSON is identity, and the bytes are stable',
    (_name, value) => {
      const encoded = encodeMessage('Lease', value);
      const decoded = decodeMessage(encoded, 'Lease');
      expect(decoded).toEqual({ ok: true, value: { value, numbers: new Map() } });
      expect(
        Buffer.from(encodeMessage('Lease', decoded.ok ? decoded.value.value : {})).equals(Buffer.from(encoded)),
      ).toBe(true);
    },
  );

  it('round-trips 500 random Leases (a seeded property run)', () => {
    const random = seededRandom(20261126);
    for (let i = 0; i < 500; i++) {
      const value = randomLease(random);
      const decoded = decodeMessage(encodeMessage('Lease', value), 'Lease');
      expect(decoded, JSON.stringify(value)).toEqual({ ok: true, value: { value, numbers: new Map() } });
    }
  });
});

async function post(
  server: LeaseApiServer,
  path: string,
  body: Uint8Array,
  headers: Record<string, string> = {},
  method = 'POST',
): Promise<{ status: number; type: string | null; body: Uint8Array }> {
  const res = await fetch(server.url + path, {
    method,
    headers: { 'Content-Type': PROTOBUF, Accept: PROTOBUF, ...headers },
    body: Buffer.from(body),
  });
  return { status: res.status, type: res.headers.get('content-type'), body: new Uint8Array(await res.arrayBuffer()) };
}

const leaseRaw = (name: string): Uint8Array => concat(msg(1, str(1, name)), msg(2, str(1, 'h'), int(2, 10)));

describe('protobuf over HTTP', () => {
  let server: LeaseApiServer;
  beforeEach(async () => {
    server = await start({ historyWindow: 10 });
  });
  afterEach(() => server.close());

  it('answers JSON clients with what protobuf created, and protobuf clients with what JSON created', async () => {
    const made = await post(server, NS_BASE, envelope('', '', leaseRaw('from-proto')), { Accept: 'application/json' });
    expect(made.status).toBe(201);
    expect(JSON.parse(Buffer.from(made.body).toString())).toMatchObject({
      kind: 'Lease',
      metadata: { name: 'from-proto', namespace: 'default' },
      spec: { holderIdentity: 'h', leaseDurationSeconds: 10 },
    });
    const fromJson = await create(server, 'from-json', {
      holderIdentity: 'j',
      renewTime: '2026-01-02T03:04:05.123456Z',
      leaseTransitions: 3,
    });
    const read = await fetch(`${server.url}${NS_BASE}/from-json`, { headers: { Accept: PROTOBUF } });
    const raw = openEnvelope(new Uint8Array(await read.arrayBuffer())).raw;
    const decoded = decodeMessage(raw, 'Lease');
    const { kind: _k, apiVersion: _a, ...bare } = fromJson;
    expect(decoded.ok && decoded.value.value).toEqual(bare);
  });

  it('words decode failures as kube-apiserver does, in protobuf for protobuf clients', async () => {
    const unrecognized = 'the object provided is unrecognized (must be of type Lease): ';
    const cases: [Uint8Array, string][] = [
      [EMPTY, `${unrecognized}empty data (<empty>)`],
      [
        Buffer.from('{"kind":"Lease"}'),
        `${unrecognized}provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({"kind":"Lease"})`,
      ],
      [Uint8Array.of(0x6b, 0x38, 0x73, 0x00), `${unrecognized}empty body (6b387300)`],
      [concat(Uint8Array.of(0x6b, 0x38, 0x73, 0x00, 0x12), varint(99)), `${unrecognized}unexpected EOF (6b3873001263)`],
      [
        envelope('coordination.k8s.io/v1', 'Lease', msg(2, int(1, 1))),
        'Lease in version "v1" cannot be handled as a Lease: proto: wrong wireType = 0 for field HolderIdentity',
      ],
      [
        envelope('coordination.k8s.io/v1', 'Lease', Uint8Array.of(0x00)),
        'Lease in version "v1" cannot be handled as a Lease: proto: Lease: illegal tag 0 (wire type 0)',
      ],
      [
        envelope('coordination.k8s.io/v1beta1', 'Lease', leaseRaw('x')),
        'the API version in the data (coordination.k8s.io/v1beta1) does not match the expected API version (coordination.k8s.io/v1)',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await post(server, NS_BASE, body);
      expect(res.status).toBe(400);
      expect(res.type).toBe(PROTOBUF);
      expect(readStatus(res.body)).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400, message });
    }
    // A long body is summarised: its first 30 bytes in hex, then " ...".
    const long = concat(Uint8Array.of(0x6b, 0x38, 0x73, 0x00, 0x12), varint(999), new Uint8Array(40));
    const summarised = readStatus((await post(server, NS_BASE, long)).body).message ?? '';
    expect(summarised).toBe(`${unrecognized}unexpected EOF (${Buffer.from(long.subarray(0, 30)).toString('hex')} ...)`);
  });

  it('takes the envelope TypeMeta as the decoder defaults it: empty is the endpoint kind, another kind is refused', async () => {
    expect((await post(server, NS_BASE, envelope('', 'Lease', leaseRaw('a')))).status).toBe(201);
    const foreign = await post(server, NS_BASE, envelope('v1', 'Pod', leaseRaw('b')), { Accept: 'application/json' });
    expect(foreign.status).toBe(400);
    expect(JSON.parse(Buffer.from(foreign.body).toString()).message).toMatch(
      /^Pod in version "v1" cannot be handled as a Lease: /,
    );
  });

  it('has no strict mode: a field the release lacks is dropped silently, whatever fieldValidation says', async () => {
    // serializer/codec_factory.go: "strict decoding is unsupported for protobuf, fall back to regular serializing".
    const old = await start({ openapi: openApi130() });
    try {
      const raw = concat(msg(1, str(1, 'old')), msg(2, str(1, 'h'), str(6, 'OldestEmulationVersion')));
      const res = await post(old, `${NS_BASE}?fieldValidation=Strict`, envelope('', '', raw), {
        Accept: 'application/json',
      });
      expect(res.status).toBe(201);
      expect(JSON.parse(Buffer.from(res.body).toString()).spec).toEqual({ holderIdentity: 'h' });
      const viaJson = await api(old, 'POST', `${NS_BASE}?fieldValidation=Strict`, {
        body: lease('old-json', { strategy: 'OldestEmulationVersion' }),
      });
      expect(viaJson.status).toBe(400);
    } finally {
      await old.close();
    }
  });

  it('decodes a protobuf update and validates it like JSON (422 with the same causes)', async () => {
    await create(server, 'v');
    const bad = envelope('coordination.k8s.io/v1', 'Lease', concat(msg(1, str(1, 'v')), msg(2, int(2, -3))));
    const res = await post(server, `${NS_BASE}/v`, bad, { Accept: 'application/json' }, 'PUT');
    const json = await api(server, 'PUT', `${NS_BASE}/v`, { body: lease('v', { leaseDurationSeconds: -3 }) });
    expect(res.status).toBe(422);
    expect(JSON.parse(Buffer.from(res.body).toString())).toEqual(json.body);
  });

  it('answers 415 with the media types kube-apiserver lists, for writes and for delete bodies', async () => {
    const message =
      'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf';
    await create(server, 'd');
    for (const [method, path] of [
      ['POST', NS_BASE],
      ['PUT', `${NS_BASE}/d`],
      ['DELETE', `${NS_BASE}/d`],
      ['DELETE', NS_BASE],
    ] as const) {
      const res = await api(server, method, path, { body: '{}', contentType: 'text/plain' });
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({ reason: 'UnsupportedMediaType', message });
    }
    expect((await api(server, 'GET', `${NS_BASE}/d`)).status).toBe(200);
  });

  it('decodes DeleteOptions bodies with the meta scheme: any group version, no other kind, errors quoted', async () => {
    await create(server, 'del');
    const other = await post(
      server,
      `${NS_BASE}/del`,
      envelope('coordination.k8s.io/v1', 'Lease', EMPTY),
      {},
      'DELETE',
    );
    expect(readStatus(other.body)).toMatchObject({
      code: 400,
      message:
        'no kind "Lease" is registered for version "coordination.k8s.io/v1" in scheme "k8s.io/apimachinery/pkg/apis/meta/internalversion/scheme/register.go:27"',
    });
    const broken = await post(server, `${NS_BASE}/del`, Buffer.from('xx'), {}, 'DELETE');
    expect(readStatus(broken.body).message).toBe(
      'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]',
    );
    const policy = await post(
      server,
      `${NS_BASE}/del`,
      envelope('meta.k8s.io/v1', 'DeleteOptions', str(4, 'Sometimes')),
      {},
      'DELETE',
    );
    expect(readStatus(policy.body)).toMatchObject({ code: 422, reason: 'Invalid' });
    const dry = await post(server, `${NS_BASE}/del`, envelope('', '', str(5, 'All')), {}, 'DELETE');
    expect(dry.status).toBe(200);
    expect((await api(server, 'GET', `${NS_BASE}/del`)).status).toBe(200);
    await create(server, 'del2');
    const collection = await post(server, NS_BASE, envelope('meta.k8s.io/v1', 'DeleteOptions', EMPTY), {}, 'DELETE');
    expect(collection.status).toBe(200);
    const list = openEnvelope(collection.body);
    expect([list.apiVersion, list.kind]).toEqual(['coordination.k8s.io/v1', 'LeaseList']);
    expect((await api(server, 'GET', NS_BASE)).body.items).toEqual([]);
  });

  it('serves PartialObjectMetadata and PartialObjectMetadataList in protobuf, and 406 for the wrong one', async () => {
    await create(server, 'pm', undefined, { labels: { a: 'b' } });
    const accept = (as: string, v = 'v1'): Record<string, string> => ({
      Accept: `${PROTOBUF};as=${as};g=meta.k8s.io;v=${v}`,
    });
    const one = await fetch(`${server.url}${NS_BASE}/pm`, { headers: accept('PartialObjectMetadata') });
    const opened = openEnvelope(new Uint8Array(await one.arrayBuffer()));
    expect([opened.apiVersion, opened.kind]).toEqual(['meta.k8s.io/v1', 'PartialObjectMetadata']);
    expect(text(sub(opened.raw, 1) ?? EMPTY, 1)).toBe('pm');
    expect(sub(opened.raw, 2)).toBeUndefined();
    const list = await fetch(`${server.url}${NS_BASE}`, { headers: accept('PartialObjectMetadataList', 'v1beta1') });
    const listed = openEnvelope(new Uint8Array(await list.arrayBuffer()));
    expect([listed.apiVersion, listed.kind]).toEqual(['meta.k8s.io/v1beta1', 'PartialObjectMetadataList']);
    const message = 'you requested PartialObjectMetadata, but the requested object is a list (*coordination.LeaseList)';
    // ErrorNegotiated negotiates under DefaultEndpointRestrictions (no as=): with only the as= clause that
    // fails, and WriteObjectNegotiated then writes the original error as JSON (responsewriters/writers.go).
    const wrong = await fetch(`${server.url}${NS_BASE}`, { headers: accept('PartialObjectMetadata') });
    expect([wrong.status, wrong.headers.get('content-type')]).toEqual([406, 'application/json']);
    expect(((await wrong.json()) as { message: string }).message).toBe(message);
    // With a plain protobuf clause after it, the error goes out as a protobuf Status.
    const { Accept } = accept('PartialObjectMetadata');
    const wrongProto = await fetch(`${server.url}${NS_BASE}`, { headers: { Accept: `${Accept}, ${PROTOBUF}` } });
    expect([wrongProto.status, wrongProto.headers.get('content-type')]).toEqual([406, PROTOBUF]);
    expect(readStatus(new Uint8Array(await wrongProto.arrayBuffer())).message).toBe(message);
  });

  it('streams a watch as length-prefixed WatchEvents whose object is the enveloped Lease', async () => {
    const controller = new AbortController();
    const res = await fetch(`${server.url}${NS_BASE}?watch=true&allowWatchBookmarks=true`, {
      headers: { Accept: `${PROTOBUF},application/json` },
      signal: controller.signal,
    });
    expect(res.headers.get('content-type')).toBe(`${PROTOBUF};stream=watch`);
    const reader = res.body?.getReader();
    await create(server, 'w1');
    let stream: Uint8Array = EMPTY;
    let got: Uint8Array[] = [];
    // The watch-list defaulting (WatchList gate) ends the (empty) initial events with a bookmark first.
    while (!got.some((frame) => text(frame, 1) === 'ADDED') && reader !== undefined) {
      const chunk = await reader.read();
      if (chunk.done) break;
      stream = concat(stream, chunk.value);
      got = frames(stream).frames;
    }
    controller.abort();
    expect(got.map((frame) => text(frame, 1))).toEqual(['BOOKMARK', 'ADDED']);
    const event = got[1];
    // No envelope around the WatchEvent itself (the stream serializer is the raw one).
    expect(text(event ?? EMPTY, 1)).toBe('ADDED');
    const object = openEnvelope(sub(sub(event ?? EMPTY, 2) ?? EMPTY, 1) ?? EMPTY);
    expect([object.apiVersion, object.kind]).toEqual(['coordination.k8s.io/v1', 'Lease']);
    expect(text(sub(object.raw, 1) ?? EMPTY, 1)).toBe('w1');
  });

  it('sends a too old resourceVersion as an in-stream ERROR frame holding a protobuf Status', async () => {
    const start = server.store.resourceVersion;
    for (let i = 0; i < 15; i++) await create(server, `old-${i}`);
    const res = await fetch(`${server.url}${NS_BASE}?watch=true&resourceVersion=${start}`, {
      headers: { Accept: PROTOBUF },
    });
    const body = new Uint8Array(await res.arrayBuffer());
    const [event] = frames(body).frames;
    expect(text(event ?? EMPTY, 1)).toBe('ERROR');
    const status = readStatus(sub(sub(event ?? EMPTY, 2) ?? EMPTY, 1) ?? EMPTY);
    expect(status).toMatchObject({ apiVersion: 'v1', kind: 'Status', status: 'Failure', code: 410, reason: 'Expired' });
    expect(status.message).toMatch(new RegExp(`^too old resource version: ${start} \\(\\d+\\)$`));
  });

  it('answers hostile bodies promptly with 400 (or 413 past the cap) while other requests are served', async () => {
    const magic = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);
    const threeMiB = 3 * 1024 * 1024;
    // Nearly 3 MiB of empty unknown fields inside the Lease, then a truncated one: all skipped, then refused.
    const filler = repeat(Uint8Array.of(0xfa, 0x01, 0x00), Math.floor((threeMiB - 64) / 3));
    const huge = envelope('coordination.k8s.io/v1', 'Lease', concat(filler, Uint8Array.of(0x10)));
    expect(huge.length).toBeLessThanOrEqual(threeMiB);
    const deep = concat(magic, bytes(2, repeat(Uint8Array.of(0xfb, 0x01), 500_000)));
    const bodies = [
      huge,
      deep,
      concat(magic, Uint8Array.of(0x0a, 0x80)),
      concat(magic, Uint8Array.of(0x12), varint(2n ** 62n)),
    ];
    const pending = bodies.map((body) => post(server, NS_BASE, body));
    const started = Date.now();
    const version = await fetch(`${server.url}/version`);
    expect(version.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(500);
    for (const res of await Promise.all(pending)) expect(res.status).toBe(400);
    const over = await post(server, NS_BASE, new Uint8Array(threeMiB + 1));
    expect(over.status).toBe(413);
  });
});

describe('LeaseCandidate in protobuf', () => {
  const candidates = (version: string): string =>
    `/apis/coordination.k8s.io/${version}/namespaces/default/leasecandidates`;
  const spec = (strategyField: Uint8Array): Uint8Array =>
    concat(
      msg(1, str(1, 'c1')),
      msg(
        2,
        str(1, 'kube-scheduler'),
        timestamp(3, 1772359200, 5000),
        str(4, '1.34.0'),
        str(5, '1.33.0'),
        strategyField,
      ),
    );

  it('creates a v1beta1 LeaseCandidate and answers in its group version', async () => {
    const server = await start({ release: '1.33', coordinatedLeaderElection: { resyncMs: 0 } });
    try {
      const body = envelope('coordination.k8s.io/v1beta1', 'LeaseCandidate', spec(str(6, 'OldestEmulationVersion')));
      const res = await post(server, candidates('v1beta1'), body);
      expect(res.status).toBe(201);
      const opened = openEnvelope(res.body);
      expect([opened.apiVersion, opened.kind]).toEqual(['coordination.k8s.io/v1beta1', 'LeaseCandidate']);
      const json = await api(server, 'GET', `${candidates('v1beta1')}/c1`);
      expect(json.body.spec).toMatchObject({
        renewTime: '2026-03-01T10:00:00.000005Z',
        strategy: 'OldestEmulationVersion',
      });
      const bad = await post(server, candidates('v1beta1'), envelope('', '', Uint8Array.of(0x12, 0x02, 0x10, 0x01)));
      expect(readStatus(bad.body).message).toBe(
        'LeaseCandidate in version "v1beta1" cannot be handled as a LeaseCandidate: proto: wrong wireType = 0 for field PingTime',
      );
    } finally {
      await server.close();
    }
  });

  it('reads v1alpha1 field 6 as the repeated preferredStrategies it was then', async () => {
    const server = await start({ release: '1.31', coordinatedLeaderElection: { resyncMs: 0 } });
    try {
      const body = envelope('coordination.k8s.io/v1alpha1', 'LeaseCandidate', spec(str(6, 'OldestEmulationVersion')));
      const res = await post(server, candidates('v1alpha1'), body, { Accept: 'application/json' });
      expect(res.status).toBe(201);
      expect(JSON.parse(Buffer.from(res.body).toString()).spec.preferredStrategies).toEqual(['OldestEmulationVersion']);
    } finally {
      await server.close();
    }
  });
});
