// One watch connection read on its own: a fetch that answers with scripted chunks, the real machine and
// deduplicator, and the reader's yields and returned effect checked directly. As client-go's StreamWatcher
// (k8s.io/apimachinery/pkg/watch/streamwatcher.go) decodes one event after another and ends on the first it
// cannot decode, the reader hands out a chunk's events and then ends with the decode error; as its
// RetryWatcher (k8s.io/client-go/tools/watch/retrywatcher.go) does, the resume point reached is what the
// next connection starts from.
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../../templates/k8s-lease-client/src/runtime/transport.js';
import { BackoffPolicy } from '../../../../templates/k8s-lease-client/src/runtime/watch/backoff.js';
import { Batch } from '../../../../templates/k8s-lease-client/src/runtime/watch/batch.js';
import { readConnection } from '../../../../templates/k8s-lease-client/src/runtime/watch/connection-reader.js';
import { Deduplicator } from '../../../../templates/k8s-lease-client/src/runtime/watch/deduplicator.js';
import { WatchError, WatchIdleTimeoutError } from '../../../../templates/k8s-lease-client/src/runtime/watch/errors.js';
import {
  INITIAL_EVENTS_END_ANNOTATION,
  type WatchNotification,
} from '../../../../templates/k8s-lease-client/src/runtime/watch/event-shape.js';
import { FINISH, Machine } from '../../../../templates/k8s-lease-client/src/runtime/watch/state-holder.js';
import { WatchDecodeError } from '../../../../templates/k8s-lease-client/src/runtime/watch/ndjson.js';
import { initialState } from '../../../../templates/k8s-lease-client/src/runtime/watch/state.js';
import type { WatchEffect } from '../../../../templates/k8s-lease-client/src/runtime/watch/state.js';
import { resolveConfig } from '../../../../templates/k8s-lease-client/src/runtime/watch/watch-config.js';
import type { WatchOptions } from '../../../../templates/k8s-lease-client/src/runtime/watch/watch-options.js';
import { rejectionOf } from '../../../helpers/rejection.js';

interface Obj {
  metadata: { name?: string; resourceVersion?: string; annotations?: Record<string, string> };
}

/** One NDJSON line. */
const raw = (value: unknown): string => `${JSON.stringify(value)}\n`;
const line = (type: string, name: string, resourceVersion: string): string =>
  raw({ type, object: { metadata: { name, resourceVersion } } });
const bookmark = (resourceVersion: string, end = false): string =>
  raw({
    type: 'BOOKMARK',
    object: {
      metadata: { resourceVersion, ...(end ? { annotations: { [INITIAL_EVENTS_END_ANNOTATION]: 'true' } } : {}) },
    },
  });

/** `TYPE name@rv`; a Batch as the list of its events. */
function show(value: WatchNotification<Obj> | Batch<Obj>): string | string[] {
  if (value instanceof Batch) return value.events.map((e) => show(e) as string);
  if (value.type === 'RESYNC') return `RESYNC@${value.resourceVersion}`;
  const { name, resourceVersion } = value.object.metadata;
  return value.type === 'BOOKMARK' ? `BOOKMARK@${resourceVersion}` : `${value.type} ${name}@${resourceVersion}`;
}

let urls: URL[];
let streams: Array<ReadableStream<Uint8Array>>;

afterEach(async () => {
  for (const stream of streams) await stream.cancel().catch(() => {});
});

interface ConnectionSetup {
  options?: WatchOptions;
  /** Where the machine starts; default "10". */
  resourceVersion?: string | undefined;
  /** The body stays open after its chunks. */
  hang?: boolean;
  /** fetch rejects with it. */
  fetchError?: Error;
}

/** A connection whose response body sends `chunks` one read at a time, then ends (or, `hang`, stays open). */
function connection(chunks: string[], setup: ConnectionSetup = {}) {
  const { options = {}, hang = false, fetchError } = setup;
  // Given as undefined: the connection starts from no resourceVersion.
  const resourceVersion = 'resourceVersion' in setup ? setup.resourceVersion : '10';
  urls = [];
  streams = [];
  const client = createClient({
    baseUrl: 'http://api.test',
    fetch: async (input) => {
      urls.push(new URL(String(input)));
      if (fetchError !== undefined) throw fetchError;
      const encoder = new TextEncoder();
      let next = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (next < chunks.length) controller.enqueue(encoder.encode(chunks[next++]));
          else if (!hang) controller.close();
        },
      });
      streams.push(body);
      return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
    },
  });
  const all: WatchOptions = { reconnect: { initialDelayMs: 100, maxDelayMs: 100, jitter: 0 }, ...options };
  const config = resolveConfig(all);
  const machine = new Machine<Obj>(
    initialState(resourceVersion, all.sendInitialEvents === true),
    new BackoffPolicy(config.backoff!, () => 0),
  );
  const seen = new Deduplicator();
  const reader = readConnection<Obj>({
    client,
    target: { path: '/apis/coordination.k8s.io/v1/leases', query: { labelSelector: 'app=x', watch: false } },
    options: all,
    config,
    machine,
    seen,
  });
  return { reader, machine, seen };
}

/** Runs the reader to its end: what it yielded, and the effect it returned. */
async function drive(
  reader: AsyncGenerator<WatchNotification<Obj> | Batch<Obj>, WatchEffect<Obj> | undefined, undefined>,
): Promise<{ yielded: Array<string | string[]>; effect: WatchEffect<Obj> | undefined }> {
  const yielded: Array<string | string[]> = [];
  for (;;) {
    const result = await reader.next();
    if (result.done === true) return { yielded, effect: result.value };
    yielded.push(show(result.value));
  }
}

describe('readConnection: the request', () => {
  it('watches from the resume point with bookmarks, keeping the target query but not its watch parameters', async () => {
    const { reader } = connection([], { options: { timeoutSeconds: 30 } });
    await drive(reader);
    expect(urls.map((u) => [u.pathname, Object.fromEntries(u.searchParams)])).toEqual([
      [
        '/apis/coordination.k8s.io/v1/leases',
        {
          watch: 'true',
          allowWatchBookmarks: 'true',
          resourceVersion: '10',
          timeoutSeconds: '30',
          labelSelector: 'app=x',
        },
      ],
    ]);
  });

  it('sendInitialEvents: from no resourceVersion, not older than the newest, bookmarks on even when turned off', async () => {
    const { reader } = connection([], {
      resourceVersion: undefined,
      options: { sendInitialEvents: true, allowWatchBookmarks: false },
    });
    await drive(reader);
    expect(Object.fromEntries(urls[0]!.searchParams)).toEqual({
      watch: 'true',
      allowWatchBookmarks: 'true',
      sendInitialEvents: 'true',
      resourceVersionMatch: 'NotOlderThan',
      resourceVersion: '',
      labelSelector: 'app=x',
    });
  });

  it('tells onConnect where it starts and after how many failures', async () => {
    const connects: unknown[] = [];
    const { reader, machine } = connection([], { options: { onConnect: (info) => connects.push(info) } });
    machine.backoff!.failures = 2;
    await drive(reader);
    expect(connects).toEqual([{ resourceVersion: '10', attempt: 2 }]);
  });

  it('a failed request returns the machine’s answer to it: wait, and retry', async () => {
    const { reader } = connection([], { fetchError: new TypeError('fetch failed') });
    const { yielded, effect } = await drive(reader);
    expect(yielded).toEqual([]);
    expect(effect).toMatchObject({ kind: 'wait', attempt: 1, delayMs: 100 });
  });
});

describe('readConnection: the stream', () => {
  it('hands out one batch per chunk, drops the replays at the resume boundary, and returns the resume point reached', async () => {
    const { reader, machine } = connection([
      line('MODIFIED', 'a', '9') + line('MODIFIED', 'a', '10') + line('MODIFIED', 'a', '11'),
      line('ADDED', 'b', '11') + bookmark('14'),
      line('DELETED', 'a', '15'),
    ]);
    const { yielded, effect } = await drive(reader);
    expect(yielded).toEqual([['MODIFIED a@11'], ['BOOKMARK@14'], ['DELETED a@15']]);
    // A clean end of a connection that brought something new: reconnect at once, from 15.
    expect(effect).toEqual({ kind: 'wait', error: undefined, attempt: 0, delayMs: 0 });
    expect(machine.state).toMatchObject({ kind: 'watch', rv: '15' });
  });

  it('a line split across chunks is one event', async () => {
    const text = line('MODIFIED', 'a', '11');
    const { reader } = connection([text.slice(0, 7), text.slice(7)]);
    expect((await drive(reader)).yielded).toEqual([['MODIFIED a@11']]);
  });

  it('a connection that brought only replays made no progress: the reconnect backs off', async () => {
    const { reader } = connection([line('MODIFIED', 'a', '10')]);
    const { yielded, effect } = await drive(reader);
    expect(yielded).toEqual([]);
    expect(effect).toEqual({ kind: 'wait', error: undefined, attempt: 1, delayMs: 100 });
  });

  it('nor did one that brought only a bookmark at the resume point, though the bookmark is handed out', async () => {
    const { reader } = connection([bookmark('10')]);
    const { yielded, effect } = await drive(reader);
    expect(yielded).toEqual([['BOOKMARK@10']]);
    expect(effect).toEqual({ kind: 'wait', error: undefined, attempt: 1, delayMs: 100 });
  });

  it('an in-stream ERROR: the events before it are handed out, then the connection ends with a WatchError', async () => {
    const status = { kind: 'Status', code: 500, reason: 'InternalError' };
    const { reader, machine } = connection([
      line('MODIFIED', 'a', '11') + raw({ type: 'ERROR', object: status }) + line('ADDED', 'b', '12'),
    ]);
    const { yielded, effect } = await drive(reader);
    expect(yielded).toEqual([['MODIFIED a@11']]);
    expect(effect).toMatchObject({ kind: 'wait', attempt: 1, delayMs: 100 });
    expect((effect as { error: unknown }).error).toEqual(new WatchError(status));
    expect(machine.state.rv).toBe('11');
  });

  it('a line that is not a watch event: the events before it are handed out, then it is thrown', async () => {
    const { reader } = connection([line('MODIFIED', 'a', '11') + raw({ type: 'SYNC', object: {} })]);
    const yielded: Array<string | string[]> = [];
    const error = await rejectionOf(
      (async () => {
        for (;;) {
          const result = await reader.next();
          if (result.done === true) return;
          yielded.push(show(result.value));
        }
      })(),
    );
    expect(yielded).toEqual([['MODIFIED a@11']]);
    expect(error).toBeInstanceOf(WatchDecodeError);
  });

  it('a stream that goes silent is cancelled after idleTimeoutMs, and ends with a WatchIdleTimeoutError', async () => {
    const { reader } = connection([line('MODIFIED', 'a', '11')], { hang: true, options: { idleTimeoutMs: 20 } });
    const { yielded, effect } = await drive(reader);
    expect(yielded).toEqual([['MODIFIED a@11']]);
    expect(effect).toMatchObject({ kind: 'wait' });
    expect((effect as { error: unknown }).error).toBeInstanceOf(WatchIdleTimeoutError);
  });

  it('ends with FINISH, and closes the stream, when the signal aborts while the consumer holds a batch', async () => {
    const controller = new AbortController();
    const { reader } = connection([line('MODIFIED', 'a', '11'), line('MODIFIED', 'a', '12')], {
      hang: true,
      options: { signal: controller.signal },
    });
    expect(show((await reader.next()).value as Batch<Obj>)).toEqual(['MODIFIED a@11']);
    controller.abort();
    expect(await reader.next()).toEqual({ done: true, value: FINISH });
  });
});

describe('readConnection: a sendInitialEvents connection', () => {
  it('collects the initial events, hands them out at the end bookmark, then reads on as a watch from it', async () => {
    const synced: unknown[] = [];
    const { reader, machine } = connection(
      [
        line('ADDED', 'a', '5') + line('ADDED', 'b', '6') + bookmark('7'),
        line('MODIFIED', 'a', '8') + line('DELETED', 'b', '9') + line('ADDED', 'c', '4'),
        bookmark('20', true) + line('MODIFIED', 'a', '8') + line('MODIFIED', 'c', '21'),
      ],
      { resourceVersion: undefined, options: { sendInitialEvents: true, onSynced: (info) => synced.push(info) } },
    );
    const { yielded, effect } = await drive(reader);
    expect(yielded).toEqual([
      // The initial state as one batch of ADDED (b was deleted before the end), then the end bookmark itself.
      ['ADDED a@8', 'ADDED c@4'],
      'BOOKMARK@20',
      // Read on as an unordered stream, where the deduplicator drops a's replay.
      ['MODIFIED c@21'],
    ]);
    expect(synced).toEqual([{ resourceVersion: '20', objects: 2 }]);
    expect(effect).toEqual({ kind: 'wait', error: undefined, attempt: 0, delayMs: 0 });
    expect(machine.state).toMatchObject({ kind: 'watch', rv: '20', synced: true });
  });

  it('a connection that ends before the end bookmark leaves the state to be obtained again', async () => {
    const { reader, machine } = connection([line('ADDED', 'a', '5')], {
      resourceVersion: undefined,
      options: { sendInitialEvents: true },
    });
    const { yielded } = await drive(reader);
    expect(yielded).toEqual([]);
    expect(machine.state).toMatchObject({ kind: 'sync', via: 'stream' });
  });
});
