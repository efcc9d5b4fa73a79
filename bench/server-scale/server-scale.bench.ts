import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { buildChild } from '../lib/build-child.js';
import { forkChild } from '../lib/fork-child.js';
import { recordGoals } from '../lib/goal.js';
import { goalsOf } from '../lib/goals.js';
import {
  environment,
  median,
  round,
  runInterleaved,
  type BenchContext,
  type BenchResult,
  type ContenderFailure,
} from '../lib/harness.js';
import {
  LEASES_PATH,
  isScaleServerMessage,
  isWatchersMessage,
  leaseName,
  scaleLease,
  type ScaleServerCommand,
  type ScaleServerConfig,
  type ScaleServerMessage,
  type WatchersConfig,
  type WatchersMessage,
} from './server-scale.js';

type Reply<T extends ScaleServerMessage['type']> = Extract<ScaleServerMessage, { type: T }>;

interface ScaleServer {
  readonly baseUrl: string;
  readonly resourceVersion: string;
  heap(): Promise<number>;
  cpu(): Promise<Reply<'cpu'>>;
  /** Starts paced writes; resolves when they end (all done, or after `stop`). */
  write(rate: number, count: number, leases: number): Promise<Reply<'written'>>;
  stop(): void;
  seed(from: number, to: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts server-scale-server.child.ts (tsx, --expose-gc) and resolves once it listens. */
async function startScaleServer(config: ScaleServerConfig): Promise<ScaleServer> {
  const child: ChildProcess = forkChild(
    new URL('./server-scale-server.child.ts', import.meta.url),
    [JSON.stringify(config)],
    {
      tsx: true,
      nodeFlags: ['--expose-gc'],
    },
  );
  const waiters = new Map<string, Array<{ resolve: (m: ScaleServerMessage) => void; reject: (e: Error) => void }>>();
  let exit: Error | undefined;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.on('message', (message: unknown) => {
    if (isScaleServerMessage(message)) waiters.get(message.type)?.shift()?.resolve(message);
  });
  child.once('exit', (code, signal) => {
    exit = new Error(`server-scale server exited (code ${String(code)}, signal ${String(signal)})`);
    for (const list of waiters.values()) for (const waiter of list.splice(0)) waiter.reject(exit);
  });
  function reply<T extends ScaleServerMessage['type']>(type: T, command?: ScaleServerCommand): Promise<Reply<T>> {
    return new Promise((resolve, reject) => {
      if (exit !== undefined) {
        reject(exit);
        return;
      }
      const list = waiters.get(type) ?? [];
      list.push({ resolve: (m) => resolve(m as Reply<T>), reject });
      waiters.set(type, list);
      if (command !== undefined) child.send(command);
    });
  }
  const listening = await reply('listening');
  return {
    baseUrl: `http://127.0.0.1:${listening.port}`,
    resourceVersion: listening.resourceVersion,
    heap: async () => (await reply('heap', { type: 'heap' })).heapUsed,
    cpu: () => reply('cpu', { type: 'cpu' }),
    write: (rate, count, leases) => reply('written', { type: 'write', rate, count, leases }),
    stop: () => void (exit === undefined && child.send({ type: 'stop' })),
    seed: async (from, to) => void (await reply('seeded', { type: 'seed', from, to })),
    async close() {
      if (exit !== undefined) return;
      child.disconnect();
      await gone;
    },
  };
}

/** `count` requests from `clients` keep-alive connections, each taking the next index; resolves with the wall seconds. */
async function spread(clients: number, count: number, one: (index: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = next++; i < count; i = next++) await one(i);
    }),
  );
  return (performance.now() - started) / 1000;
}

/** One write; resolves with the stored Lease's resourceVersion (a Lease update must name the one it replaces). */
async function send(pool: Pool, method: 'POST' | 'PUT', path: string, body: unknown, status: number): Promise<string> {
  const response = await pool.request({
    path,
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.body.text();
  if (response.statusCode !== status)
    throw new Error(`${method} ${path}: status ${response.statusCode}, expected ${status}: ${text.slice(0, 300)}`);
  const metadata: unknown = Reflect.get(JSON.parse(text) as object, 'metadata');
  const version: unknown =
    typeof metadata === 'object' && metadata !== null ? Reflect.get(metadata, 'resourceVersion') : '';
  return typeof version === 'string' ? version : '';
}

/** One whole paged LIST (limit 500, following continue tokens, each page decoded); resolves with ms and items. */
async function pagedList(pool: Pool): Promise<{ ms: number; items: number }> {
  const started = performance.now();
  let items = 0;
  let token = '';
  do {
    const query = `?limit=500${token === '' ? '' : `&continue=${encodeURIComponent(token)}`}`;
    const response = await pool.request({ path: `${LEASES_PATH}${query}`, method: 'GET' });
    const page: unknown = await response.body.json();
    if (response.statusCode !== 200) throw new Error(`LIST page: status ${response.statusCode}`);
    const list = Reflect.get(page as object, 'items');
    const metadata = Reflect.get(page as object, 'metadata');
    items += Array.isArray(list) ? list.length : 0;
    const next: unknown = typeof metadata === 'object' && metadata !== null ? Reflect.get(metadata, 'continue') : '';
    token = typeof next === 'string' ? next : '';
  } while (token !== '');
  return { ms: performance.now() - started, items };
}

interface Sized {
  readonly leases: number;
  readonly createsPerSecond: number;
  readonly updatesPerSecond: number;
  readonly heapBytesPerLease: number;
  readonly listQuietMs: number;
  readonly listUnderWritesMs: number;
  readonly writesPerSecondDuringList: number;
}

/**
 * Creates, updates, heap and paged LISTs against one fresh server holding `leases` Leases: all but the
 * last `creates` go in through the store handle, the last `creates` over HTTP (timed, at that size).
 */
async function measureSize(leases: number, creates: number, updates: number, listRepeats: number): Promise<Sized> {
  const server = await startScaleServer({ seed: 0, watchBatching: true });
  const pool = new Pool(server.baseUrl, { connections: 8 });
  try {
    const heapBefore = await server.heap();
    const first = leases - creates;
    await server.seed(0, first);
    const versions: string[] = [];
    const createSeconds = await spread(8, creates, async (i) => {
      versions[i] = await send(pool, 'POST', LEASES_PATH, scaleLease(first + i, 0, Date.now()), 201);
    });
    const heapAfter = await server.heap();
    // Updates of the Leases created over HTTP (their resourceVersions are known), spread over them
    // (7919 is prime: i ↦ 7919·i mod n visits each once); with updates ≤ creates no two clients ever
    // update the same Lease, so none meets a conflict.
    const updateSeconds = await spread(8, updates, async (i) => {
      const slot = (i * 7919) % creates;
      const index = first + slot;
      const lease = scaleLease(index, 1 + i, Date.now());
      const body = { ...lease, metadata: { ...lease.metadata, resourceVersion: versions[slot] } };
      versions[slot] = await send(pool, 'PUT', `${LEASES_PATH}/${leaseName(index)}`, body, 200);
    });
    const lists = async (): Promise<number[]> => {
      const times: number[] = [];
      for (let r = 0; r < listRepeats; r++) {
        const { ms, items } = await pagedList(pool);
        if (items !== leases) throw new Error(`paged LIST returned ${items} Leases, expected ${leases}`);
        times.push(ms);
      }
      return times;
    };
    await pagedList(pool); // warm-up: the first LIST compiles the paths the others take
    const quiet = await lists();
    const writing = server.write(200, Number.MAX_SAFE_INTEGER, leases);
    await sleep(200);
    const underWrites = await lists();
    server.stop();
    const written = await writing;
    return {
      leases,
      createsPerSecond: creates / createSeconds,
      updatesPerSecond: updates / updateSeconds,
      heapBytesPerLease: (heapAfter - heapBefore) / leases,
      listQuietMs: median(quiet),
      listUnderWritesMs: median(underWrites),
      writesPerSecondDuringList: written.writes / written.seconds,
    };
  } finally {
    await pool.close();
    await server.close();
  }
}

type WatchMode = 'batched' | 'unbatched';

interface Watched {
  readonly deliveries: number;
  readonly expected: number;
  readonly deliveriesPerSecond: number;
  readonly maxLagMs: number;
  readonly ended: number;
  readonly serverCpuMicrosPerDelivery: number;
  readonly writesPerSecond: number;
}

/** Runs the watchers child until it reports; rejects if it exits first. */
function startWatchers(
  entry: string,
  config: WatchersConfig,
): Promise<{ go: () => void; done: Promise<Extract<WatchersMessage, { type: 'done' }>>; close: () => void }> {
  return new Promise((resolveReady, rejectReady) => {
    const child = forkChild(entry, [JSON.stringify(config)]);
    let resolveDone: (m: Extract<WatchersMessage, { type: 'done' }>) => void = () => {};
    let rejectDone: (e: Error) => void = () => {};
    const done = new Promise<Extract<WatchersMessage, { type: 'done' }>>((resolve, reject) => {
      resolveDone = resolve;
      rejectDone = reject;
    });
    done.catch(() => {}); // observed by the caller; never an unhandled rejection if it is not awaited
    child.on('message', (message: unknown) => {
      if (!isWatchersMessage(message)) return;
      if (message.type === 'ready')
        resolveReady({
          go: () => child.send({ type: 'go' }),
          done,
          close: () => void (child.connected && child.disconnect()),
        });
      else resolveDone(message);
    });
    child.once('exit', (code, signal) => {
      const error = new Error(`watchers child exited (code ${String(code)}, signal ${String(signal)})`);
      rejectReady(error);
      rejectDone(error);
    });
  });
}

/** `watchers` watches of a server holding `leases` Leases, while it writes `writes` updates at 1,000/s. */
async function measureWatch(
  entry: string,
  mode: WatchMode,
  leases: number,
  watchers: number,
  writes: number,
): Promise<Watched> {
  const server = await startScaleServer({ seed: leases, watchBatching: mode === 'batched' });
  let close = (): void => {};
  try {
    const watching = await startWatchers(entry, {
      baseUrl: server.baseUrl,
      watchers,
      resourceVersion: server.resourceVersion,
      events: writes,
      stallMs: 10_000,
    });
    close = watching.close;
    const before = await server.cpu();
    watching.go();
    const written = await server.write(1000, writes, leases);
    const received = await watching.done;
    const after = await server.cpu();
    return {
      deliveries: received.deliveries,
      expected: watchers * writes,
      deliveriesPerSecond: received.deliveries / received.seconds,
      maxLagMs: received.maxLagMs,
      ended: received.ended,
      serverCpuMicrosPerDelivery: (after.cpuMicros - before.cpuMicros) / received.deliveries,
      writesPerSecond: written.writes / written.seconds,
    };
  } finally {
    close();
    await server.close();
  }
}

/**
 * The shipped Lease API server at 10,000, 50,000 and 100,000 Leases (1,000 / 2,000 / 5,000 with
 * --quick), each in a fresh child process: creates/s (the last 10,000 of the count, the rest through
 * the store handle) and updates/s over HTTP from 8 keep-alive connections, the retained heap per
 * Lease (forced GC in the server), a whole paged LIST (limit
 * 500) quiet and under ~200 writes/s, then 200 watchers (20 quick) at 1,000 writes/s, with watch
 * batching on and off, each in a server of its own: deliveries/s, max lag and server CPU per
 * delivery. Goals (declared in goals.ts), as ratios within this run: LIST under writes at the
 * largest count ≤ 1.2 × the count ratio × the smallest (≤ 12 for 100,000 ÷ 10,000); server CPU
 * per delivery unbatched ÷ batched ≥ 1.5 (median over the counts); every watcher receives every write.
 */
export async function benchServerScale(context: BenchContext): Promise<BenchResult> {
  const sizes = context.quick ? [1_000, 2_000, 5_000] : [10_000, 50_000, 100_000];
  const watchers = context.quick ? 20 : 200;
  // 5 s of writes at 1,000/s; to 200 watchers that is 1,000,000 deliveries (~110–150k/s on a loaded 2-core machine).
  const watchWrites = context.quick ? 1_000 : 5_000;
  const listRepeats = 5;
  /** Timed HTTP creates, and updates of those, at each count (the rest of the count goes in through the store handle). */
  const writesAt = context.quick ? 1_000 : 10_000;
  const watchersEntry = await buildChild(new URL('./server-scale-watchers.child.ts', import.meta.url));

  const figures: Record<string, number | string> = {
    'Lease counts': sizes.join(', '),
    'keep-alive clients': 8,
    'timed HTTP creates and updates per count': writesAt,
    'LIST page size': 500,
    watchers,
    'watch writes per run (at 1,000/s)': watchWrites,
  };
  const sized: Sized[] = [];
  const failed: ContenderFailure[] = [];
  const cpuRatios: number[] = [];
  let everyEventDelivered = true;
  for (const leases of sizes) {
    const at = `${leases} Leases`;
    // A count whose server dies (out of memory, say) is recorded as failed; the other counts' figures stand.
    const size = await measureSize(leases, writesAt, writesAt, listRepeats).catch((error: unknown) => {
      failed.push({ contender: `writes and LISTs at ${at}`, round: 0, error: String(error) });
      return undefined;
    });
    if (size !== undefined) sized.push(size);
    if (size !== undefined) {
      figures[`${at}: creates/s`] = round(size.createsPerSecond, 0);
      figures[`${at}: updates/s`] = round(size.updatesPerSecond, 0);
      figures[`${at}: heap bytes per Lease`] = round(size.heapBytesPerLease, 0);
      figures[`${at}: paged LIST ms (quiet, median)`] = round(size.listQuietMs, 1);
      figures[`${at}: paged LIST ms (under writes, median)`] = round(size.listUnderWritesMs, 1);
      figures[`${at}: writes/s during the LISTs`] = round(size.writesPerSecondDuringList, 0);
    }

    const { results, failed: watchFailures } = await runInterleaved(['batched', 'unbatched'] as const, 1, (mode) =>
      measureWatch(watchersEntry, mode, leases, watchers, watchWrites),
    );
    failed.push(...watchFailures.map((f) => ({ ...f, contender: `${f.contender} watch at ${at}` })));
    for (const [mode, [watched]] of results) {
      if (watched === undefined) continue;
      figures[`${at}: ${mode} watch: deliveries/s`] = round(watched.deliveriesPerSecond, 0);
      figures[`${at}: ${mode} watch: max lag ms`] = round(watched.maxLagMs, 0);
      figures[`${at}: ${mode} watch: server CPU µs per delivery`] = round(watched.serverCpuMicrosPerDelivery, 2);
      figures[`${at}: ${mode} watch: deliveries / expected`] = `${watched.deliveries} / ${watched.expected}`;
      figures[`${at}: ${mode} watch: writes/s`] = round(watched.writesPerSecond, 0);
      if (watched.deliveries !== watched.expected || watched.ended > 0) everyEventDelivered = false;
    }
    const batched = results.get('batched')?.[0];
    const unbatched = results.get('unbatched')?.[0];
    if (batched === undefined || unbatched === undefined) everyEventDelivered = false;
    else {
      const ratio = unbatched.serverCpuMicrosPerDelivery / batched.serverCpuMicrosPerDelivery;
      cpuRatios.push(ratio);
      figures[`${at}: server CPU per delivery unbatched / batched`] = round(ratio, 3);
    }
  }

  // Goals (goals.ts) compare the configured smallest and largest counts: if either failed, its ratio is NaN,
  // recorded as null, and the goal is not measured (the failure itself is in `failed`).
  const at = (leases: number): Sized | undefined => sized.find((z) => z.leases === leases);
  const smallest = at(sizes[0]!);
  const largest = at(sizes[sizes.length - 1]!);
  const listRatio = (largest?.listUnderWritesMs ?? Number.NaN) / (smallest?.listUnderWritesMs ?? Number.NaN);
  const quietRatio = (largest?.listQuietMs ?? Number.NaN) / (smallest?.listQuietMs ?? Number.NaN);
  const cpuRatio = cpuRatios.length === sizes.length ? median(cpuRatios) : Number.NaN;
  figures['paged LIST under writes, largest / smallest'] = round(listRatio, 3);
  figures['paged LIST quiet, largest / smallest'] = round(quietRatio, 3);
  figures['server CPU per delivery unbatched / batched (median over counts)'] = round(cpuRatio, 3);

  return {
    name: 'server-scale',
    command: `npm run bench -- server-scale${context.quick ? ' --quick' : ''}`,
    environment: environment(),
    figures,
    goals: recordGoals(goalsOf('server-scale'), figures, {
      'every-delivery': { met: everyEventDelivered, detail: `${watchers} watchers, ${watchWrites} writes` },
    }),
    ...(failed.length === 0 ? {} : { failed }),
  };
}
