import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  KubernetesApiError,
  ResponseTooLargeError,
} from '../../../../templates/k8s-lease-client/src/runtime/errors.js';
import { createClient } from '../../../../templates/k8s-lease-client/src/runtime/transport.js';
import type { Client } from '../../../../templates/k8s-lease-client/src/runtime/transport.js';
import { WatchDecodeError } from '../../../../templates/k8s-lease-client/src/runtime/watch/ndjson.js';
import {
  isNewerResourceVersion,
  objectKey,
} from '../../../../templates/k8s-lease-client/src/runtime/watch/resource-version.js';
import { WatchError, WatchIdleTimeoutError } from '../../../../templates/k8s-lease-client/src/runtime/watch/errors.js';
import { watch } from '../../../../templates/k8s-lease-client/src/runtime/watch/watch.js';
import type {
  WatchDisconnectInfo,
  WatchOptions,
} from '../../../../templates/k8s-lease-client/src/runtime/watch/watch-options.js';
import { startLoopback } from '../../../helpers/loopback.js';
import { consume, recordingSleep } from './helpers/collect.js';
import { rejectionOf } from '../../../helpers/rejection.js';
import { bookmarkObject, leaseOf, startScriptedFront } from './helpers/fault-server.js';
import type { ScriptedFront } from './helpers/fault-server.js';
import { activeTimers, eventually, LEASES_PATH, startTestCluster, statusBody } from './helpers/lease-server.js';
import type { Lease, TestCluster } from './helpers/lease-server.js';

// The shipped Lease API server; its fault injection scripts the watch connections.
let server: TestCluster;
let client: Client;
let front: ScriptedFront | undefined;
const target = { path: LEASES_PATH };

beforeEach(async () => {
  server = await startTestCluster(101);
  client = createClient({ baseUrl: server.url });
  // rv 101..103
  server.create('a', 'a', { app: 'x' });
  server.create('b', 'a', { app: 'x' });
  server.create('c', 'a', { app: 'x' });
});
afterEach(async () => {
  await front?.close();
  front = undefined;
  await server.close();
});

/** For output kube-apiserver never sends: a scripted front before the server, and a client of it. */
async function scripted(): Promise<ScriptedFront> {
  front = await startScriptedFront(server.url);
  client = createClient({ baseUrl: front.url });
  return front;
}

function leaseWatch(
  options: WatchOptions = {},
): AsyncIterable<
  import('../../../../templates/k8s-lease-client/src/runtime/watch/event-shape.js').WatchNotification<Lease>
> {
  return watch<Lease>(client, target, { reconnect: { initialDelayMs: 1, maxDelayMs: 5 }, ...options });
}

/** Changes after the seed (rv 104..), so a watch from rv 103 replays them from history. */
function churn(count: number): string[] {
  const names = ['a', 'b', 'c'];
  const expected: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = names[i % 3] ?? 'a';
    expected.push(`MODIFIED ${name}@${server.update(name, `h${i}`)}`);
  }
  return expected;
}

describe('watch: list, then watch', () => {
  it('lists first (ADDED per item), then watches from the list resourceVersion with bookmarks and the selectors', async () => {
    const connects: Array<{ resourceVersion: string | undefined; attempt: number }> = [];
    const synced: unknown[] = [];
    const seen = await consume(
      watch<Lease>(
        client,
        { path: LEASES_PATH, query: { labelSelector: 'app=x', watch: false, limit: 3 } },
        {
          onConnect: (info) => {
            connects.push(info);
            server.update('a', 'x');
          },
          onSynced: (info) => synced.push(info),
        },
      ),
      (s) => s.length === 4,
    );
    expect(seen).toEqual(['ADDED a@101', 'ADDED b@102', 'ADDED c@103', 'MODIFIED a@104']);
    expect(synced).toEqual([{ resourceVersion: '103', objects: 3 }]);
    expect(connects).toEqual([{ resourceVersion: '103', attempt: 0 }]);
    const [list, watchRequest] = server.requests();
    expect(list?.query.toString()).toBe('labelSelector=app%3Dx&limit=500');
    expect(watchRequest?.query.toString()).toBe(
      'watch=true&allowWatchBookmarks=true&resourceVersion=103&labelSelector=app%3Dx',
    );
  });

  it('starts from options.resourceVersion without listing, and can turn bookmarks off and set timeoutSeconds', async () => {
    const expected = churn(2);
    const seen = await consume(
      leaseWatch({ resourceVersion: '103', allowWatchBookmarks: false, timeoutSeconds: 30 }),
      (s) => s.length === 2,
    );
    expect(seen).toEqual(expected);
    expect(server.requests().map((r) => r.query.toString())).toEqual([
      'watch=true&resourceVersion=103&timeoutSeconds=30',
    ]);
  });
});

describe('watch: reconnects lose nothing and duplicate nothing', () => {
  it('a stream cut mid-line resumes from the last resourceVersion', async () => {
    const expected = churn(12);
    server.scriptWatches(
      { kind: 'cut', afterEvents: 4, midLine: true },
      { kind: 'cut', afterEvents: 3, midLine: true },
    );
    const disconnects: WatchDisconnectInfo[] = [];
    const connects: Array<string | undefined> = [];
    const seen = await consume(
      leaseWatch({
        resourceVersion: '103',
        onDisconnect: (info) => disconnects.push(info),
        onConnect: (info) => connects.push(info.resourceVersion),
      }),
      (s) => s.length === 13,
      (_n, s) => {
        if (s.length === 12) server.update('b', 'live');
      },
    );
    expect(seen).toEqual([...expected, 'MODIFIED b@116']);
    expect(connects).toEqual(['103', '107', '110']);
    // A cut is a failure, events delivered or not: the backoff grows until a connection proves itself.
    expect(disconnects.map((info) => info.attempt)).toEqual([1, 2]);
    for (const info of disconnects) expect(info.error).toBeInstanceOf(Error);
  });

  it('a replay of the event at the resume point (which kube-apiserver never sends) is dropped', async () => {
    const expected = churn(4);
    const scripts = await scripted();
    // Resumes from 105 and 106 each start with a replay of that very event.
    scripts.scripts.push(
      (ctx) => {
        ctx.send({ type: 'MODIFIED', object: leaseOf('a', '104', 'h0') });
        ctx.send({ type: 'MODIFIED', object: leaseOf('b', '105', 'h1') });
        ctx.cut('{"type":"MODIFIED","obj');
      },
      (ctx) => {
        ctx.send({ type: 'MODIFIED', object: leaseOf('b', '105', 'h1') });
        ctx.send({ type: 'MODIFIED', object: leaseOf('c', '106', 'h2') });
        ctx.cut('{"type":"MODIFIED","obj');
      },
      (ctx) => {
        ctx.send({ type: 'MODIFIED', object: leaseOf('c', '106', 'h2') });
        ctx.send({ type: 'MODIFIED', object: leaseOf('a', '107', 'h3') });
      },
    );
    const connects: Array<string | undefined> = [];
    const seen = await consume(
      leaseWatch({ resourceVersion: '103', onConnect: (info) => connects.push(info.resourceVersion) }),
      (s) => s.length === 4,
    );
    expect(seen).toEqual(expected);
    expect(connects).toEqual(['103', '105', '106']);
  });

  it('reconnects after a clean end of the stream, immediately', async () => {
    const expected = churn(5);
    server.scriptWatches({ kind: 'end', afterEvents: 2 }, { kind: 'end', afterEvents: 2 });
    const disconnects: WatchDisconnectInfo[] = [];
    const seen = await consume(
      leaseWatch({ resourceVersion: '103', onDisconnect: (info) => disconnects.push(info) }),
      (s) => s.length === 5,
    );
    expect(seen).toEqual(expected);
    expect(disconnects).toEqual([
      { error: undefined, attempt: 0, delayMs: 0 },
      { error: undefined, attempt: 0, delayMs: 0 },
    ]);
    expect(server.watchRequests().map((r) => r.query.get('resourceVersion'))).toEqual(['103', '105', '107']);
  });

  it('a server that ends every watch at once without a word is retried with growing backoff, not in a tight loop', async () => {
    server.scriptWatches({ kind: 'end', afterEvents: 0, count: 3 });
    const { sleep, delays } = recordingSleep();
    const expected = churn(1);
    const seen = await consume(
      watch<Lease>(client, target, {
        resourceVersion: '103',
        sleep,
        random: () => 0,
        reconnect: { initialDelayMs: 10 },
      }),
      (s) => s.length === 1,
    );
    expect(seen).toEqual(expected);
    // A connection that ends before proving itself does not reset the failure count.
    expect(delays).toEqual([10, 20, 40]);
  }, 10_000);

  it('an idle stream (no byte for idleTimeoutMs) is replaced', async () => {
    const expected = churn(3);
    server.scriptWatches({ kind: 'idle' });
    const disconnects: WatchDisconnectInfo[] = [];
    const started = Date.now();
    const seen = await consume(
      leaseWatch({ resourceVersion: '103', idleTimeoutMs: 200, onDisconnect: (info) => disconnects.push(info) }),
      (s) => s.length === 3,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(seen).toEqual(expected);
    expect(disconnects).toHaveLength(1);
    expect(disconnects[0]?.error).toBeInstanceOf(WatchIdleTimeoutError);
    // The idle connection was closed on the server side too.
    await server.waitForOpenWatches(0);
  });

  it('bookmarks count as activity and move the resume point', async () => {
    server.scriptWatches({ kind: 'idle', bookmarkEveryMs: 40 });
    const disconnects: unknown[] = [];
    const seen = await consume(
      leaseWatch({ resourceVersion: '101', idleTimeoutMs: 150, onDisconnect: (info) => disconnects.push(info) }),
      (s) => s.length === 10,
    );
    expect(seen).toEqual(Array.from({ length: 10 }, () => 'BOOKMARK@103'));
    expect(disconnects).toEqual([]);
  });

  it('a bookmark moves the resume point even when no object changed', async () => {
    const scripts = await scripted();
    scripts.scripts.push((ctx) => {
      ctx.send({ type: 'BOOKMARK', object: bookmarkObject(103) });
      ctx.cut();
    });
    const seen = await consume(
      leaseWatch({
        resourceVersion: '101',
        onConnect: (info) => info.resourceVersion === '103' && server.update('a', 'x'),
      }),
      (s) => s.length === 2,
    );
    expect(seen).toEqual(['BOOKMARK@103', 'MODIFIED a@104']);
    expect(scripts.watchRequests().map((r) => r.query.get('resourceVersion'))).toEqual(['101', '103']);
  });

  it('the idle clock does not run while the consumer holds an event', async () => {
    const expected = churn(2);
    const disconnects: unknown[] = [];
    const seen = await consume(
      leaseWatch({ resourceVersion: '103', idleTimeoutMs: 100, onDisconnect: (info) => disconnects.push(info) }),
      (s) => s.length === 2,
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 250));
      },
    );
    expect(seen).toEqual(expected);
    expect(disconnects).toEqual([]);
  });

  it('never yields an event at or below the highest resourceVersion of an ordered stream', async () => {
    const scripts = await scripted();
    scripts.scripts.push((ctx) => {
      ctx.send({ type: 'MODIFIED', object: leaseOf('a', '110') });
      ctx.send({ type: 'MODIFIED', object: leaseOf('a', '109') }); // older: replay
      ctx.send({ type: 'MODIFIED', object: leaseOf('a', '110') }); // same: duplicate
      ctx.send({ type: 'MODIFIED', object: leaseOf('b', '105') }); // below the stream's newest: a replay from before the resume point
      ctx.send({ type: 'DELETED', object: leaseOf('a', '111') });
      ctx.send({ type: 'DELETED', object: leaseOf('a', '111') });
      ctx.send({ type: 'ADDED', object: leaseOf('a', '112') });
      ctx.send({ type: 'MODIFIED', object: leaseOf('a', '1000') }); // decimal, not string, comparison
    });
    const seen = await consume(leaseWatch({ resourceVersion: '103' }), (s) => s.length === 4);
    expect(seen).toEqual(['MODIFIED a@110', 'DELETED a@111', 'ADDED a@112', 'MODIFIED a@1000']);
  });

  it('a watch from resourceVersion "0" that is cut resumes from "0", so no object is skipped', async () => {
    // Synthetic ADDED events come in key order: a@104, b@106, then c@105, older than b and never seen before.
    server.update('a', 'x');
    server.update('c', 'x');
    server.update('b', 'x');
    server.scriptWatches({ kind: 'cut', afterEvents: 2, midLine: false });
    const seen = await consume(leaseWatch({ resourceVersion: '0' }), (s) => s.length === 3);
    expect(seen).toEqual(['ADDED a@104', 'ADDED b@106', 'ADDED c@105']);
    expect(server.watchRequests().map((r) => r.query.get('resourceVersion'))).toEqual(['0', '0']);
  });

  it('from resourceVersion "0" the synthetic ADDED events come in any order and all are yielded; replays per object are still dropped', async () => {
    const scripts = await scripted();
    scripts.scripts.push((ctx) => {
      ctx.send({ type: 'ADDED', object: leaseOf('a', '110') });
      ctx.send({ type: 'ADDED', object: leaseOf('b', '105') }); // older than a, but another object: fine here
      ctx.send({ type: 'MODIFIED', object: leaseOf('a', '110') }); // same object, same version: duplicate
      ctx.send({ type: 'MODIFIED', object: leaseOf('b', '111') });
    });
    const seen = await consume(leaseWatch({ resourceVersion: '0' }), (s) => s.length === 3);
    expect(seen).toEqual(['ADDED a@110', 'ADDED b@105', 'MODIFIED b@111']);
  });
});

describe('watch: 410 leads to a RESYNC, never to an event', () => {
  it('an in-stream ERROR 410 re-lists and yields the complete state', async () => {
    churn(3);
    server.remove('c');
    server.create('d');
    server.compact();
    const resyncs: unknown[] = [];
    const seen = await consume(
      leaseWatch({ resourceVersion: '103', onResync: (info) => resyncs.push(info) }),
      (s) => s.length === 2,
      (n) => {
        if (n.type === 'RESYNC') server.update('d', 'after');
      },
    );
    expect(seen).toEqual(['RESYNC(Expired)@108[a@104,b@105,d@108]', 'MODIFIED d@109']);
    expect(resyncs).toEqual([{ reason: 'Expired', resourceVersion: '108', objects: 3 }]);
    expect(server.requests().map((r) => (r.watch ? `watch@${r.query.get('resourceVersion')}` : 'list'))).toEqual([
      'watch@103',
      'list',
      'watch@108',
    ]);
  });

  it('an HTTP 410 Gone at watch start re-lists too', async () => {
    server.scriptWatches({ kind: 'http', status: 410, body: statusBody(410, 'Gone', 'gone') });
    const seen = await consume(leaseWatch({ resourceVersion: '50' }), (s) => s.length === 1);
    expect(seen).toEqual(['RESYNC(Gone)@103[a@101,b@102,c@103]']);
  });

  it('repeated 410s right after a list back off instead of spinning', async () => {
    server.scriptWatches({ kind: 'http', status: 410, body: statusBody(410, 'Expired', 'expired'), count: 3 });
    const { sleep, delays } = recordingSleep();
    const seen = await consume(
      watch<Lease>(client, target, { resourceVersion: '50', sleep, random: () => 0 }),
      (s) => s.length === 3,
    );
    // 1st 410: relist at once; the next two come right after a list: backoff.
    expect(seen).toEqual([
      'RESYNC(Expired)@103[a@101,b@102,c@103]',
      'RESYNC(Expired)@103[a@101,b@102,c@103]',
      'RESYNC(Expired)@103[a@101,b@102,c@103]',
    ]);
    expect(delays).toEqual([200, 400]);
  });

  it('with reconnect: false a 410 is thrown as a typed error', async () => {
    server.update('a', 'x');
    server.compact();
    const error = await rejectionOf(
      consume(watch<Lease>(client, target, { resourceVersion: '103', reconnect: false }), () => false),
    );
    expect(error).toBeInstanceOf(WatchError);
    expect(error).toMatchObject({
      code: 410,
      reason: 'Expired',
      status: 410,
      statusObject: { kind: 'Status', code: 410 },
    });
  });
});

describe('watch: errors', () => {
  it.each([400, 401, 403, 404, 422])(
    'HTTP %i at watch start is thrown as a KubernetesApiError, without retry',
    async (status) => {
      server.scriptWatches({ kind: 'http', status, body: statusBody(status, 'Nope') });
      const error = await rejectionOf(consume(leaseWatch({ resourceVersion: '103' }), () => false));
      expect(error).toBeInstanceOf(KubernetesApiError);
      expect((error as KubernetesApiError).status).toBe(status);
      expect(server.watchRequests()).toHaveLength(1);
    },
  );

  it('a 403 on the initial LIST is thrown', async () => {
    server.failLists({ status: 403, body: statusBody(403, 'Forbidden') });
    const error = await rejectionOf(consume(leaseWatch(), () => false));
    expect(error).toMatchObject({ name: 'KubernetesApiError', status: 403, reason: 'Forbidden' });
  });

  it('a 503 on the initial LIST is retried', async () => {
    server.failLists({ status: 503 }, { status: 500 });
    const seen = await consume(leaseWatch(), (s) => s.length === 3);
    expect(seen).toEqual(['ADDED a@101', 'ADDED b@102', 'ADDED c@103']);
  });

  it('429 honours Retry-After (real time)', async () => {
    server.scriptWatches({
      kind: 'http',
      status: 429,
      body: statusBody(429, 'TooManyRequests'),
      headers: { 'Retry-After': '1' },
    });
    const expected = churn(1);
    const disconnects: WatchDisconnectInfo[] = [];
    const started = Date.now();
    const seen = await consume(
      leaseWatch({ resourceVersion: '103', onDisconnect: (info) => disconnects.push(info) }),
      (s) => s.length === 1,
    );
    expect(seen).toEqual(expected);
    expect(Date.now() - started).toBeGreaterThanOrEqual(980);
    expect(disconnects[0]?.delayMs).toBe(1000);
  });

  it('429 with Status.details.retryAfterSeconds waits that long, even beyond maxDelayMs', async () => {
    server.scriptWatches({
      kind: 'http',
      status: 429,
      body: statusBody(429, 'TooManyRequests', 'slow down', { details: { retryAfterSeconds: 42 } }),
    });
    const { sleep, delays } = recordingSleep();
    churn(1);
    await consume(
      watch<Lease>(client, target, { resourceVersion: '103', sleep, reconnect: { maxDelayMs: 1000 } }),
      (s) => s.length === 1,
    );
    expect(delays).toEqual([42_000]);
  });

  it('backoff doubles, is capped by maxDelayMs and bounded by maxRetries', async () => {
    server.scriptWatches({ kind: 'http', status: 503, body: statusBody(503, 'ServiceUnavailable'), count: 10 });
    const { sleep, delays } = recordingSleep();
    const error = await rejectionOf(
      consume(
        watch<Lease>(client, target, {
          resourceVersion: '103',
          sleep,
          random: () => 0,
          reconnect: { initialDelayMs: 100, maxDelayMs: 1000, maxRetries: 6 },
        }),
        () => false,
      ),
    );
    expect(error).toMatchObject({ name: 'KubernetesApiError', status: 503 });
    expect(delays).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(server.watchRequests()).toHaveLength(7);
  });

  it('jitter shortens delays by up to the given fraction', async () => {
    server.scriptWatches({ kind: 'http', status: 500, count: 3 });
    const { sleep, delays } = recordingSleep();
    churn(1);
    await consume(
      watch<Lease>(client, target, {
        resourceVersion: '103',
        sleep,
        random: () => 1,
        reconnect: { initialDelayMs: 100, jitter: 0.5 },
      }),
      (s) => s.length === 1,
    );
    expect(delays).toEqual([50, 100, 200]);
  });

  it('the failure count (and so the backoff) resets after a connection that delivered events and ended cleanly', async () => {
    server.scriptWatches(
      { kind: 'http', status: 503, count: 2 },
      { kind: 'end', afterEvents: 1 },
      { kind: 'http', status: 503 },
    );
    const { sleep, delays } = recordingSleep();
    const attempts: number[] = [];
    churn(2);
    await consume(
      watch<Lease>(client, target, {
        resourceVersion: '103',
        sleep,
        random: () => 0,
        onConnect: (i) => attempts.push(i.attempt),
      }),
      (s) => s.length === 2,
    );
    // 503, 503, then a connection that delivers and ends cleanly (reconnected at once, no delay), then a 503 that starts over.
    expect(delays).toEqual([200, 400, 200]);
    expect(attempts).toEqual([2, 1]);
  });

  it('a connection cut straight after its 200 does not reset the backoff, and maxRetries ends it', async () => {
    server.scriptWatches({ kind: 'cut', afterEvents: 0, midLine: false, count: 4 });
    const { sleep, delays } = recordingSleep();
    const error = await rejectionOf(
      consume(
        watch<Lease>(client, target, { resourceVersion: '103', sleep, random: () => 0, reconnect: { maxRetries: 3 } }),
        () => false,
      ),
    );
    expect(error).toBeDefined();
    expect(delays).toEqual([200, 400, 800]);
  });

  it('a 410 straight after a fresh LIST backs off instead of re-listing in a tight loop', async () => {
    server.scriptWatches({
      kind: 'error',
      afterEvents: 0,
      status: { code: 410, reason: 'Expired', message: 'too old resource version' },
      count: 3,
    });
    const { sleep, delays } = recordingSleep();
    const resyncs: unknown[] = [];
    churn(1);
    await consume(
      watch<Lease>(client, target, { sleep, random: () => 0, onResync: (info) => resyncs.push(info) }),
      (s) => s.filter((e) => e.startsWith('RESYNC')).length === 3,
    );
    expect(resyncs).toHaveLength(3);
    expect(delays).toEqual([200, 400, 800]);
    expect(server.requests().filter((r) => !r.watch)).toHaveLength(4);
  });

  it('network failures (connection refused) are retried and bounded by maxRetries', async () => {
    const dead = createClient({ baseUrl: 'http://127.0.0.1:1' });
    const { sleep, delays } = recordingSleep();
    const error = await rejectionOf(
      consume(watch<Lease>(dead, target, { resourceVersion: '1', sleep, reconnect: { maxRetries: 2 } }), () => false),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(delays).toHaveLength(2);
  });

  it('every connection delivering an event and then an in-stream ERROR 500 backs off: delays double and attempt counts up', async () => {
    const expected = churn(5);
    server.scriptWatches({
      kind: 'error',
      afterEvents: 1,
      status: { code: 500, reason: 'InternalError', message: 'etcd hiccup' },
      count: 5,
    });
    const { sleep, delays } = recordingSleep();
    const connects: number[] = [];
    const disconnects: number[] = [];
    const seen = await consume(
      watch<Lease>(client, target, {
        resourceVersion: '103',
        sleep,
        random: () => 0,
        reconnect: { initialDelayMs: 100, maxDelayMs: 1000 },
        onConnect: (info) => connects.push(info.attempt),
        onDisconnect: (info) => disconnects.push(info.attempt),
      }),
      (s) => s.length === 5,
    );
    // Nothing lost or duplicated meanwhile.
    expect(seen).toEqual(expected);
    expect(delays).toEqual([100, 200, 400, 800]);
    expect(connects).toEqual([0, 1, 2, 3, 4]);
    expect(disconnects).toEqual([1, 2, 3, 4]);
  });

  it('a WatchError message is a bounded excerpt with control characters escaped; the Status stays whole', async () => {
    const message = `\u001b[2J\r\nforged ${'m'.repeat(5000)}`;
    server.scriptWatches({ kind: 'error', afterEvents: 0, status: { code: 400, reason: 'BadRequest', message } });
    const error = await rejectionOf(consume(leaseWatch({ resourceVersion: '103' }), () => false));
    expect(error).toBeInstanceOf(WatchError);
    expect((error as WatchError).message).toBe(
      `watch error 400 ${`BadRequest: %1B[2J%0D%0Aforged ${'m'.repeat(200)}`.slice(0, 200)}…`,
    );
    expect((error as WatchError).statusObject.message).toBe(message);
  });

  it('an in-stream ERROR 500 reconnects; any other in-stream ERROR is thrown as WatchError', async () => {
    const expected = churn(2);
    server.scriptWatches(
      { kind: 'error', afterEvents: 1, status: { code: 500, reason: 'InternalError', message: 'etcd hiccup' } },
      { kind: 'error', afterEvents: 1, status: { code: 400, reason: 'BadRequest', message: 'nope' } },
    );
    const seen: string[] = [];
    const error = await rejectionOf(
      consume(leaseWatch({ resourceVersion: '103' }), (s) => {
        seen.splice(0, seen.length, ...s);
        return false;
      }),
    );
    expect(seen).toEqual(expected);
    expect(error).toBeInstanceOf(WatchError);
    expect(error).toMatchObject({ code: 400, reason: 'BadRequest', message: 'watch error 400 BadRequest: nope' });
  });

  it('a malformed line is thrown as WatchDecodeError after the events before it, and not retried', async () => {
    const scripts = await scripted();
    scripts.scripts.push((ctx) =>
      ctx.end(
        `${JSON.stringify({ type: 'ADDED', object: leaseOf('z', '200') })}\n{"type":"MODIFIED","object":{oops}\n`,
      ),
    );
    const seen: string[] = [];
    const error = await rejectionOf(
      consume(leaseWatch({ resourceVersion: '103' }), (s) => {
        seen.splice(0, seen.length, ...s);
        return false;
      }),
    );
    expect(seen).toEqual(['ADDED z@200']);
    expect(error).toBeInstanceOf(WatchDecodeError);
    expect(error).toMatchObject({ excerpt: '{"type":"MODIFIED","object":{oops}', line: 2, truncated: false });
    expect(scripts.watchRequests()).toHaveLength(1);
  });

  it('a stream that ends cleanly in the middle of a line is a truncation error, not a silent drop', async () => {
    const scripts = await scripted();
    scripts.scripts.push((ctx) => ctx.end('{"type":"ADDED","object":{"metadata":{"name":"z"'));
    const error = await rejectionOf(consume(leaseWatch({ resourceVersion: '103' }), () => false));
    expect(error).toMatchObject({ name: 'WatchDecodeError', truncated: true });
  });

  it('JSON that is not a watch event is a WatchDecodeError', async () => {
    const scripts = await scripted();
    scripts.scripts.push((ctx) => ctx.end('{"kind":"Status","code":200}\n'));
    const error = await rejectionOf(consume(leaseWatch({ resourceVersion: '103' }), () => false));
    expect(error).toBeInstanceOf(WatchDecodeError);
    expect(String(error)).toContain('not a watch event');
  });

  it('reconnect: false ends on a clean end (return) and throws on an abrupt one', async () => {
    const expected = churn(3);
    server.scriptWatches({ kind: 'end', afterEvents: 2 });
    const seen = await consume(watch<Lease>(client, target, { resourceVersion: '103', reconnect: false }), () => false);
    expect(seen).toEqual(expected.slice(0, 2));
    server.scriptWatches({ kind: 'cut', afterEvents: 1, midLine: true });
    const error = await rejectionOf(
      consume(watch<Lease>(client, target, { resourceVersion: '103', reconnect: false }), () => false),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(server.watchRequests()).toHaveLength(2);
  });

  it('validates its options up front', () => {
    expect(() => watch(client, target, { idleTimeoutMs: 0 })).toThrow(RangeError);
    expect(() => watch(client, target, { timeoutSeconds: 1.5 })).toThrow(RangeError);
    expect(() => watch(client, target, { reconnect: { jitter: 2 } })).toThrow(RangeError);
    expect(() => watch(client, target, { reconnect: { initialDelayMs: 10, maxDelayMs: 5 } })).toThrow(RangeError);
  });

  it('refuses up front a client that cannot stream (not made by createClient), instead of retrying it forever', () => {
    const fake: Client = { baseUrl: server.url, request: () => Promise.reject(new Error('not used')) };
    expect(() => watch(fake, target)).toThrow(new TypeError('streaming needs a client made by createClient'));
    expect(server.requests()).toHaveLength(0);
  });
});

describe('watch: stopping', () => {
  it('aborting ends the for-await cleanly, closes the connection and leaves no timer', async () => {
    const baseline = activeTimers();
    const controller = new AbortController();
    const expected = churn(2);
    const seen = await consume(
      leaseWatch({ resourceVersion: '103', signal: controller.signal, idleTimeoutMs: 60_000 }),
      () => false,
      (_n, s) => {
        if (s.length === 2) setTimeout(() => controller.abort(new Error('bye')), 20);
      },
    );
    expect(seen).toEqual(expected);
    await server.waitForOpenWatches(0);
    await eventually(() => activeTimers() <= baseline, 2_000, 'timers to be released');
  });

  it('aborting during a backoff wait ends at once and clears the timer', async () => {
    const baseline = activeTimers();
    server.scriptWatches({ kind: 'http', status: 503 });
    const controller = new AbortController();
    const started = Date.now();
    const seen = await consume(
      watch<Lease>(client, target, {
        resourceVersion: '103',
        signal: controller.signal,
        reconnect: { initialDelayMs: 30_000, maxDelayMs: 30_000 },
        onDisconnect: () => setTimeout(() => controller.abort(), 10),
      }),
      () => false,
    );
    expect(seen).toEqual([]);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(activeTimers()).toBeLessThanOrEqual(baseline);
  });

  it('an already aborted signal makes no request', async () => {
    const seen = await consume(leaseWatch({ signal: AbortSignal.abort() }), () => false);
    expect(seen).toEqual([]);
    expect(server.requests()).toHaveLength(0);
  });

  it('aborting during the initial LIST ends cleanly', async () => {
    const controller = new AbortController();
    server.failLists({ status: 503 });
    const seen = await consume(
      leaseWatch({ signal: controller.signal, onDisconnect: () => controller.abort() }),
      () => false,
    );
    expect(seen).toEqual([]);
  });

  it('break cancels the body: the server sees the watch connection close', async () => {
    const baseline = activeTimers();
    churn(5);
    const seen = await consume(leaseWatch({ resourceVersion: '103' }), (s) => s.length === 2);
    expect(seen).toHaveLength(2);
    await server.waitForOpenWatches(0);
    expect(activeTimers()).toBeLessThanOrEqual(baseline);
  });
});

describe('watch: sendInitialEvents', () => {
  it('streams the initial state, yields it after the initial-events-end bookmark, then watches', async () => {
    const synced: unknown[] = [];
    const seen = await consume(
      leaseWatch({ sendInitialEvents: true, onSynced: (info) => synced.push(info) }),
      (s) => s.length === 5,
      (_n, s) => {
        if (s.length === 4) server.update('a', 'x');
      },
    );
    expect(seen).toEqual(['ADDED a@101', 'ADDED b@102', 'ADDED c@103', 'BOOKMARK@103', 'MODIFIED a@104']);
    expect(synced).toEqual([{ resourceVersion: '103', objects: 3 }]);
    expect(server.requests().map((r) => r.query.toString())).toEqual([
      'watch=true&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=',
    ]);
  });

  it('a connection lost before the bookmark starts over without yielding anything twice', async () => {
    server.scriptWatches({ kind: 'cut', afterEvents: 1, midLine: true });
    const seen = await consume(leaseWatch({ sendInitialEvents: true }), (s) => s.length === 4);
    expect(seen).toEqual(['ADDED a@101', 'ADDED b@102', 'ADDED c@103', 'BOOKMARK@103']);
    expect(server.watchRequests().map((r) => r.query.get('sendInitialEvents'))).toEqual(['true', 'true']);
  });

  it('falls back to LIST when the server rejects sendInitialEvents', async () => {
    server.scriptWatches({
      kind: 'http',
      status: 422,
      body: statusBody(422, 'Invalid', 'sendInitialEvents is forbidden'),
    });
    const seen = await consume(
      leaseWatch({ sendInitialEvents: true, onConnect: () => server.update('a', 'x') }),
      (s) => s.length === 4,
    );
    expect(seen).toEqual(['ADDED a@101', 'ADDED b@102', 'ADDED c@103', 'MODIFIED a@104']);
    expect(server.requests().map((r) => (r.watch ? `watch@${r.query.get('resourceVersion')}` : 'list'))).toEqual([
      'watch@',
      'list',
      'watch@103',
    ]);
  });
});

describe('watch: sendInitialEvents against a release whose WatchList gate is off', () => {
  // kube-apiserver 1.33 (WatchList off by default) refuses the parameter with 422 (apimachinery validation.go
  // validateWatchOptions); client-go's reflector then lists, and so does this watch.
  it('falls back to LIST on the real 422 of a 1.33 server and yields the same initial state', async () => {
    await server.close();
    server = await startTestCluster(101, '1.33');
    client = createClient({ baseUrl: server.url });
    server.create('a', 'a', { app: 'x' });
    server.create('b', 'a', { app: 'x' });
    server.create('c', 'a', { app: 'x' });
    const seen = await consume(leaseWatch({ sendInitialEvents: true }), (s) => s.length === 3);
    expect(seen).toEqual(['ADDED a@101', 'ADDED b@102', 'ADDED c@103']);
    const requests = server.requests().map((r) => (r.watch ? `watch ${r.query.get('sendInitialEvents')}` : 'list'));
    expect(requests.slice(0, 2)).toEqual(['watch true', 'list']);
  });
});

describe('resourceVersion ordering', () => {
  it.each([
    ['10', '9', true],
    ['9', '10', false],
    ['10', '10', false],
    ['0010', '9', true],
    ['123456789012345678901234567890', '123456789012345678901234567889', true],
    ['abc', 'abd', true],
    ['abc', 'abc', false],
    ['10', 'x', true],
  ])('isNewerResourceVersion(%s, %s) = %s', (a, b, expected) => {
    expect(isNewerResourceVersion(a, b)).toBe(expected);
  });

  it('keys objects as namespace/name', () => {
    expect(objectKey('ns', 'n')).toBe('ns/n');
    expect(objectKey(undefined, 'n')).toBe('n');
  });
});

describe('watch: bounded lines', () => {
  it('a watch line longer than maxLineBytes (a line that never ends) ends the iteration with ResponseTooLargeError, not a reconnect loop', async () => {
    const loopback = await startLoopback();
    let closed = false;
    loopback.handler = (_request, res) => {
      res.on('close', () => {
        closed = true;
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`${JSON.stringify({ type: 'ADDED', object: leaseOf('a', '104') })}\n{"type":"ADDED","object":{"pad":"`);
      const pump = (): void => {
        while (!closed && res.write('p'.repeat(4096)));
        if (!closed) res.once('drain', pump);
      };
      pump();
    };
    try {
      const seen: string[] = [];
      const error = await rejectionOf(
        consume(
          watch<Lease>(createClient({ baseUrl: loopback.baseUrl }), target, {
            resourceVersion: '103',
            maxLineBytes: 64 * 1024,
          }),
          (s) => {
            seen.splice(0, seen.length, ...s);
            return false;
          },
        ),
      );
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect(error).toMatchObject({ limit: 'maxLineBytes', maxBytes: 64 * 1024 });
      expect(seen).toEqual(['ADDED a@104']);
      expect(loopback.requests).toHaveLength(1);
      await eventually(() => closed, 5_000, 'the connection closed');
    } finally {
      await loopback.close();
    }
  });

  it('an unusable maxLineBytes is refused at once', () => {
    expect(() => watch<Lease>(client, target, { maxLineBytes: 0 })).toThrow(RangeError);
  });
});
