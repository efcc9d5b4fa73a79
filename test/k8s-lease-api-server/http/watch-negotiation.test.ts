// Watches in a negotiated representation and from a future resourceVersion:
// k8s.io/apiserver/pkg/endpoints/handlers/watch.go serveWatchHandler and response.go watchEmbeddedEncoder
// (each event's object transformed, Table column definitions only in the first event), and
// k8s.io/apiserver/pkg/storage/cacher (waitUntilFreshLocked's 504, cacheWatcher.process's filter,
// setInitialEventsEndBookmarkIfRequested).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import type { WatchEvent } from '../helpers.js';
import { NS_BASE, api, create, start, watch } from '../helpers.js';
import { concat, frames, openEnvelope, readStatus, sub, text } from '../helpers/protobuf-wire.js';

const POM = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const WATCH_LIST = 'watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true';

/** What client-go's metadata informer requires of each event: a PartialObjectMetadata with metadata only. */
function asMetadataInformerWould(event: WatchEvent): {
  type: string;
  name: string | undefined;
  rv: string | undefined;
} {
  expect(event.object.kind).toBe('PartialObjectMetadata');
  expect(event.object.apiVersion).toBe('meta.k8s.io/v1');
  expect(Object.keys(event.object).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
  return { type: event.type, name: event.object.metadata?.name, rv: event.object.metadata?.resourceVersion };
}

describe('watch representations', () => {
  let server: LeaseApiServer;
  beforeEach(async () => {
    server = await start({ bookmarkIntervalMs: 60_000, resourceVersionWaitMs: 100 });
  });
  afterEach(() => server.close());

  it('streams PartialObjectMetadata events, the initial-events-end bookmark included, to a metadata-only client', async () => {
    await create(server, 'a');
    // k8s.io/client-go/metadata's Accept without its first (protobuf) clause; see the protobuf watch below.
    const accept = `${POM},application/json`;
    const w = await watch(server, `${NS_BASE}?${WATCH_LIST}`, { Accept: accept });
    expect(w.status).toBe(200);
    expect(w.headers.get('content-type')).toBe('application/json');
    expect(asMetadataInformerWould(await w.next())).toMatchObject({ type: 'ADDED', name: 'a' });
    const end = await w.next();
    expect(asMetadataInformerWould(end)).toEqual({
      type: 'BOOKMARK',
      name: undefined,
      rv: String(server.store.resourceVersion),
    });
    expect(end.object.metadata?.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
    await api(server, 'PATCH', `${NS_BASE}/a`, {
      body: { spec: { holderIdentity: 'z' } },
      contentType: 'application/merge-patch+json',
    });
    expect(asMetadataInformerWould(await w.next())).toMatchObject({ type: 'MODIFIED', name: 'a' });
    await api(server, 'DELETE', `${NS_BASE}/a`);
    expect(asMetadataInformerWould(await w.next())).toMatchObject({ type: 'DELETED', name: 'a' });
    w.close();
  });

  it('sends full objects when PartialObjectMetadataList is asked of a watch (the transform fails per event; doEncode falls back)', async () => {
    await create(server, 'a');
    const w = await watch(server, `${NS_BASE}?watch=true`, {
      Accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1',
    });
    expect((await w.next()).object).toMatchObject({ kind: 'Lease', spec: { holderIdentity: 'h1' } });
    w.close();
  });

  it('puts Table column definitions in the first event only (NoHeaders afterwards)', async () => {
    await create(server, 'a');
    await create(server, 'b');
    const w = await watch(server, `${NS_BASE}?watch=true`, { Accept: TABLE });
    const first = await w.next();
    expect(first.object.kind).toBe('Table');
    expect((first.object.columnDefinitions as unknown as { name: string }[]).map((c) => c.name)).toEqual([
      'Name',
      'Holder',
      'Age',
    ]);
    const second = await w.next();
    expect(second.object.columnDefinitions).toBeNull();
    expect(second.object.rows?.[0]?.cells.slice(0, 2)).toEqual(['b', 'h1']);
    await create(server, 'c');
    expect((await w.next()).object.columnDefinitions).toBeNull();
    w.close();
  });

  it('gives the initial-events-end bookmark of a Table watch a metadata row object even with includeObject=None', async () => {
    await create(server, 'a');
    const w = await watch(server, `${NS_BASE}?${WATCH_LIST}&includeObject=None`, { Accept: TABLE });
    const added = await w.next();
    expect(added.object.rows).toEqual([{ cells: ['a', 'h1', expect.any(String)] }]);
    const end = await w.next();
    expect(end.type).toBe('BOOKMARK');
    expect(end.object.kind).toBe('Table');
    expect(end.object.rows?.[0]?.object).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: {
        resourceVersion: String(server.store.resourceVersion),
        annotations: { 'k8s.io/initial-events-end': 'true' },
      },
    });
    w.close();
  });

  it('refuses a YAML watch with the stream media types (NegotiateOutputMediaTypeStream), JSON otherwise', async () => {
    for (const accept of ['application/yaml', 'application/yaml, application/json']) {
      const res = await api(server, 'GET', `${NS_BASE}?watch=true`, { headers: { Accept: accept } });
      expect(res.status).toBe(406);
      // scope.err writes the Status with ErrorNegotiated, which (not streaming) negotiates YAML.
      expect(res.headers.get('content-type')).toBe('application/yaml');
      expect(parse(res.text).message).toBe(
        'only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch',
      );
    }
    const bad = await api(server, 'GET', `${NS_BASE}?watch=true&includeObject=All`, { headers: { Accept: TABLE } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(
      "Unable to convert to Table as requested: includeObject: Invalid value: \"All\": must be 'Metadata', 'Object', 'None', or empty",
    );
  });
});

/** Reads a protobuf watch until `count` frames arrived: each event's type and enveloped object. */
async function protobufEvents(
  res: Response,
  count: number,
): Promise<{ type: string | undefined; object: ReturnType<typeof openEnvelope> }[]> {
  const reader = res.body?.getReader();
  let stream: Uint8Array = new Uint8Array(0);
  let got: Uint8Array[] = [];
  while (got.length < count && reader !== undefined) {
    const chunk = await reader.read();
    if (chunk.done) break;
    stream = concat(stream, chunk.value);
    got = frames(stream).frames;
  }
  await reader?.cancel();
  const empty = new Uint8Array(0);
  return got.map((frame) => ({ type: text(frame, 1), object: openEnvelope(sub(sub(frame, 2) ?? empty, 1) ?? empty) }));
}

describe('protobuf watch representations (application/vnd.kubernetes.protobuf;stream=watch)', () => {
  let server: LeaseApiServer;
  beforeEach(async () => {
    server = await start({ bookmarkIntervalMs: 60_000, resourceVersionWaitMs: 50 });
  });
  afterEach(() => server.close());
  const empty = new Uint8Array(0);

  it('streams PartialObjectMetadata frames, initial-events-end bookmark included, to client-go metadata watches', async () => {
    await create(server, 'a');
    // k8s.io/client-go/metadata: the Accept of its Watch — protobuf first, which kube-apiserver serves.
    const accept = `application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,${POM},application/json`;
    const res = await fetch(`${server.url}${NS_BASE}?${WATCH_LIST}`, { headers: { Accept: accept } });
    expect([res.status, res.headers.get('content-type')]).toEqual([
      200,
      'application/vnd.kubernetes.protobuf;stream=watch',
    ]);
    const [added, end] = await protobufEvents(res, 2);
    // watchEmbeddedEncoder: every object, the bookmark's too, converted to meta.k8s.io/v1 PartialObjectMetadata.
    expect([added?.type, added?.object.apiVersion, added?.object.kind]).toEqual([
      'ADDED',
      'meta.k8s.io/v1',
      'PartialObjectMetadata',
    ]);
    const meta = sub(added?.object.raw ?? empty, 1) ?? empty;
    expect(text(meta, 1)).toBe('a');
    // PartialObjectMetadata has metadata only: no spec field.
    expect(sub(added?.object.raw ?? empty, 2)).toBeUndefined();
    expect([end?.type, end?.object.kind]).toEqual(['BOOKMARK', 'PartialObjectMetadata']);
    const endMeta = sub(end?.object.raw ?? empty, 1) ?? empty;
    expect(text(endMeta, 6)).toBe(String(server.store.resourceVersion));
    // ObjectMeta.annotations (12) as a map entry {key 1, value 2}.
    const annotation = sub(endMeta, 12) ?? empty;
    expect([text(annotation, 1), text(annotation, 2)]).toEqual(['k8s.io/initial-events-end', 'true']);
  });

  it('sends the 504 of a sendInitialEvents watch the store does not catch up with as a protobuf ERROR frame', async () => {
    const current = Number(server.store.resourceVersion);
    const res = await fetch(`${server.url}${NS_BASE}?${WATCH_LIST}&resourceVersion=${current + 5}`, {
      headers: { Accept: 'application/vnd.kubernetes.protobuf' },
    });
    expect(res.headers.get('content-type')).toBe('application/vnd.kubernetes.protobuf;stream=watch');
    const body = new Uint8Array(await res.arrayBuffer());
    const [event] = frames(body).frames;
    expect(text(event ?? empty, 1)).toBe('ERROR');
    const status = readStatus(sub(sub(event ?? empty, 2) ?? empty, 1) ?? empty);
    expect(status).toMatchObject({ kind: 'Status', code: 504, reason: 'Timeout' });
    expect(status.message).toBe(`Timeout: Too large resource version: ${current + 5}, current: ${current}`);
  });

  it('keeps a Table watch in JSON when Table comes first (Tables have no protobuf encoding)', async () => {
    await create(server, 'a');
    const w = await watch(server, `${NS_BASE}?watch=true`, {
      Accept: `${TABLE}, application/vnd.kubernetes.protobuf`,
    });
    expect(w.headers.get('content-type')).toBe('application/json');
    const first = await w.next();
    expect([first.type, first.object.kind, first.object.rows?.[0]?.cells[0]]).toEqual(['ADDED', 'Table', 'a']);
    w.close();
  });
});

describe('watch from a future resourceVersion', () => {
  let server: LeaseApiServer;
  afterEach(() => server.close());

  it('answers a sendInitialEvents watch the store does not catch up with by a 504 ERROR event (waitUntilFreshLocked)', async () => {
    server = await start({ resourceVersionWaitMs: 50 });
    const current = Number(server.store.resourceVersion);
    const w = await watch(server, `${NS_BASE}?${WATCH_LIST}&resourceVersion=${current + 5}`);
    expect(w.status).toBe(200);
    expect(await w.next()).toEqual({
      type: 'ERROR',
      object: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `Timeout: Too large resource version: ${current + 5}, current: ${current}`,
        reason: 'Timeout',
        details: {
          causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
          retryAfterSeconds: 1,
        },
        code: 504,
      },
    });
    expect(await w.ended).toBe('end');
    expect(server.activeWatches()).toBe(0);
  });

  it('serves a sendInitialEvents watch once a write brings the store to its resourceVersion within the wait', async () => {
    server = await start({ resourceVersionWaitMs: 60_000 });
    const target = Number(server.store.resourceVersion) + 1;
    const pending = watch(server, `${NS_BASE}?${WATCH_LIST}&resourceVersion=${target}`);
    await create(server, 'arrives');
    const w = await pending;
    expect(await w.next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'arrives' } } });
    expect(await w.next()).toMatchObject({
      type: 'BOOKMARK',
      object: { metadata: { resourceVersion: String(target) } },
    });
    w.close();
  });

  it('sends a plain watch nothing at or below its resourceVersion (cacheWatcher.process), no error', async () => {
    server = await start({ resourceVersionWaitMs: 50, bookmarkIntervalMs: 20 });
    const current = Number(server.store.resourceVersion);
    const w = await watch(server, `${NS_BASE}?watch=true&allowWatchBookmarks=true&resourceVersion=${current + 2}`);
    expect(w.status).toBe(200);
    await create(server, 'one');
    await create(server, 'two');
    await create(server, 'three');
    const event = await w.next();
    expect(event).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'three' } } });
    w.close();
  });

  it('waits on a get and a list for a future resourceVersion, then answers 504 Too large resource version', async () => {
    server = await start({ resourceVersionWaitMs: 50 });
    const current = Number(server.store.resourceVersion);
    for (const path of [`${NS_BASE}?resourceVersion=${current + 1}`, `${NS_BASE}/x?resourceVersion=${current + 1}`]) {
      const res = await api(server, 'GET', path);
      expect(res.status).toBe(504);
      expect(res.body.message).toBe(`Timeout: Too large resource version: ${current + 1}, current: ${current}`);
    }
  });

  it('answers a list once a write reaches its resourceVersion during the wait', async () => {
    server = await start({ resourceVersionWaitMs: 60_000 });
    const target = Number(server.store.resourceVersion) + 1;
    const pending = api(server, 'GET', `${NS_BASE}?resourceVersion=${target}`);
    await create(server, 'late');
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.body.items?.map((i) => i.metadata?.name)).toEqual(['late']);
  });
});

describe('watch-list defaulting (SetListOptionsDefaults under the WatchList gate)', () => {
  it.each([
    ['1.35.0', true],
    ['1.34.0', true],
    ['1.33.1', false],
  ])(
    'release %s: a watch from no resourceVersion with bookmarks ends its initial events with the annotated bookmark: %s',
    async (release, defaulted) => {
      const server = await start({ release, bookmarkIntervalMs: 60_000 });
      try {
        await create(server, 'a');
        const w = await watch(server, `${NS_BASE}?watch=true&allowWatchBookmarks=true`);
        expect((await w.next()).type).toBe('ADDED');
        await create(server, 'b');
        const next = await w.next();
        if (defaulted) {
          expect(next).toMatchObject({
            type: 'BOOKMARK',
            object: { metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } } },
          });
          expect((await w.next()).object.metadata?.name).toBe('b');
        } else {
          expect(next).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'b' } } });
        }
        w.close();
      } finally {
        await server.close();
      }
    },
  );

  it('leaves a watch from a resourceVersion, or one that chose sendInitialEvents itself, as it is', async () => {
    const server = await start({ bookmarkIntervalMs: 60_000 });
    try {
      await create(server, 'a');
      const rv = server.store.resourceVersion;
      const w = await watch(server, `${NS_BASE}?watch=true&allowWatchBookmarks=true&resourceVersion=${rv}`);
      await create(server, 'b');
      expect(await w.next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'b' } } });
      w.close();
    } finally {
      await server.close();
    }
  });
});
