import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KubernetesApiError } from '../../../../templates/k8s-lease-client/src/runtime/errors.js';
import { createClient } from '../../../../templates/k8s-lease-client/src/runtime/transport.js';
import type { Client } from '../../../../templates/k8s-lease-client/src/runtime/transport.js';
import { createInformer } from '../../../../templates/k8s-lease-client/src/runtime/watch/informer.js';
import type { Informer, InformerHandlers } from '../../../../templates/k8s-lease-client/src/runtime/watch/informer.js';
import type { WatchOptions } from '../../../../templates/k8s-lease-client/src/runtime/watch/watch-options.js';
import { rejectionOf } from '../../../helpers/rejection.js';
import { activeTimers, eventually, LEASES_PATH, startTestCluster, statusBody } from './helpers/lease-server.js';
import type { Lease, TestCluster } from './helpers/lease-server.js';

// The shipped Lease API server; its fault injection scripts the watch connections.
let server: TestCluster;
let client: Client;
let informer: Informer<Lease> | undefined;

beforeEach(async () => {
  server = await startTestCluster(101);
  client = createClient({ baseUrl: server.url });
  server.create('a'); // 101
  server.create('b'); // 102
  server.create('c'); // 103
});
afterEach(async () => {
  await informer?.stop();
  informer = undefined;
  await server.close();
});

function recorder(): { log: string[]; errors: unknown[]; handlers: InformerHandlers<Lease> } {
  const log: string[] = [];
  const errors: unknown[] = [];
  const at = (o: Lease): string => `${o.metadata.name}@${o.metadata.resourceVersion}`;
  return {
    log,
    errors,
    handlers: {
      onAdd: (o) => log.push(`add ${at(o)}`),
      onUpdate: (old, o) => log.push(`update ${at(old)}->${o.metadata.resourceVersion}`),
      onDelete: (o) => log.push(`delete ${at(o)}`),
      onResync: (info) => log.push(`resync(${info.reason})@${info.resourceVersion}/${info.objects}`),
      onError: (error) => errors.push(error),
    },
  };
}

function start(handlers: InformerHandlers<Lease>, options: WatchOptions = {}): Informer<Lease> {
  informer = createInformer<Lease>(client, { path: LEASES_PATH }, handlers, {
    reconnect: { initialDelayMs: 1, maxDelayMs: 5 },
    ...options,
  });
  return informer;
}

const state = (inf: Informer<Lease>): Record<string, string> =>
  Object.fromEntries(
    inf
      .list()
      .map((o) => [o.metadata.name, o.metadata.resourceVersion])
      .sort(),
  );

describe('createInformer', () => {
  it('start() resolves once the initial state is cached and announced; then follows changes', async () => {
    const { log, handlers } = recorder();
    const inf = start(handlers);
    expect(inf.hasSynced()).toBe(false);
    await inf.start();
    expect(inf.hasSynced()).toBe(true);
    expect(log).toEqual(['add a@101', 'add b@102', 'add c@103']);
    expect(inf.lastResourceVersion).toBe('103');
    expect(inf.start()).toBe(inf.start());

    await server.waitForOpenWatches(1);
    server.update('a', 'x');
    server.remove('b');
    server.create('d');
    await eventually(() => log.length === 6);
    expect(log.slice(3)).toEqual(['update a@101->104', 'delete b@105', 'add d@106']);
    expect(inf.get('default', 'a')?.spec.holderIdentity).toBe('x');
    expect(inf.get('default', 'b')).toBeUndefined();
    expect(state(inf)).toEqual({ a: '104', c: '103', d: '106' });
    expect(inf.lastResourceVersion).toBe('106');
  });

  it('survives any number of disconnects', async () => {
    const { log, errors, handlers } = recorder();
    const inf = start(handlers);
    server.scriptWatches(
      { kind: 'cut', afterEvents: 0, midLine: false },
      { kind: 'end', afterEvents: 0 },
      { kind: 'http', status: 503 },
      { kind: 'cut', afterEvents: 1, midLine: true },
    );
    await inf.start();
    for (let i = 0; i < 5; i++) server.update('a', `h${i}`);
    await eventually(() => state(inf)['a'] === '108', 5_000, 'the last update');
    expect(log.filter((l) => l.startsWith('update'))).toEqual([
      'update a@101->104',
      'update a@104->105',
      'update a@105->106',
      'update a@106->107',
      'update a@107->108',
    ]);
    expect(errors).toEqual([]);
  });

  it('after a 410 it diffs the re-listed state against the cache: add, update, delete, then onResync', async () => {
    const { log, handlers } = recorder();
    // The first watch goes quiet; meanwhile the cluster changes and compacts, so the resume gets a 410.
    server.scriptWatches({ kind: 'idle' });
    const inf = start(handlers, { idleTimeoutMs: 300 });
    await inf.start();
    server.update('b', 'x'); // 104
    server.remove('c'); // 105
    server.create('d'); // 106
    server.compact();
    await eventually(() => log.some((l) => l.startsWith('resync')), 5_000, 'the resync');
    expect(log.slice(3)).toEqual(['delete c@103', 'update b@102->104', 'add d@106', 'resync(Expired)@106/3']);
    expect(state(inf)).toEqual({ a: '101', b: '104', d: '106' });
    expect(inf.lastResourceVersion).toBe('106');
  });

  it('a non-retriable error during the initial list rejects start() and is reported', async () => {
    server.failLists({ status: 403, body: statusBody(403, 'Forbidden') });
    const { errors, handlers } = recorder();
    const inf = start(handlers);
    const error = await rejectionOf(inf.start());
    expect(error).toBeInstanceOf(KubernetesApiError);
    expect(errors).toEqual([error]);
    expect(inf.hasSynced()).toBe(false);
  });

  it('a non-retriable error after sync stops it and is reported via onError', async () => {
    server.scriptWatches(
      { kind: 'cut', afterEvents: 0, midLine: false },
      { kind: 'http', status: 401, body: statusBody(401, 'Unauthorized') },
    );
    const { errors, handlers } = recorder();
    const inf = start(handlers);
    await inf.start();
    await eventually(() => errors.length === 1);
    expect(errors[0]).toMatchObject({ status: 401 });
    const requests = server.requests().length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.requests().length).toBe(requests);
  });

  it('a throwing handler is reported and does not stop the informer', async () => {
    const { errors, handlers } = recorder();
    const boom = new Error('handler bug');
    const inf = start({
      ...handlers,
      onAdd: () => {
        throw boom;
      },
    });
    await inf.start();
    server.update('a', 'x');
    await eventually(() => state(inf)['a'] === '104');
    expect(errors).toEqual([boom, boom, boom]);
  });

  it('stop() closes the watch connection and leaves no timer; start() after stop rejects', async () => {
    const baseline = activeTimers();
    const inf = start({});
    await inf.start();
    await server.waitForOpenWatches(1);
    await inf.stop();
    await server.waitForOpenWatches(0);
    expect(activeTimers()).toBeLessThanOrEqual(baseline);
    await inf.stop();

    const never = createInformer<Lease>(client, { path: LEASES_PATH });
    await never.stop();
    await expect(never.start()).rejects.toThrow('the informer was stopped');
  });

  it('stop() before sync rejects the pending start()', async () => {
    server.failLists({ status: 503 }, { status: 503 }, { status: 503 });
    const inf = start({}, { reconnect: { initialDelayMs: 10_000 } });
    const starting = inf.start();
    await eventually(() => server.requests().length === 1);
    await inf.stop();
    await expect(starting).rejects.toThrow('the informer was stopped');
  });

  it('options.signal stops it like stop()', async () => {
    const controller = new AbortController();
    const inf = start({}, { signal: controller.signal });
    await inf.start();
    await server.waitForOpenWatches(1);
    controller.abort();
    await server.waitForOpenWatches(0);
  });
});
