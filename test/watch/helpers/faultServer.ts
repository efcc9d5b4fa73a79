// A small Kubernetes-like Lease LIST/WATCH server on loopback whose watch connections follow a
// script: cut mid-line, end cleanly, go idle, send an in-stream ERROR, answer an HTTP error, …
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export const LEASES_PATH = '/apis/coordination.k8s.io/v1/namespaces/default/leases';

export interface Lease {
  apiVersion: 'coordination.k8s.io/v1';
  kind: 'Lease';
  metadata: { name: string; namespace: string; resourceVersion: string; uid: string; annotations?: Record<string, string> };
  spec: { holderIdentity?: string };
}

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';
export interface Change {
  type: ChangeType;
  object: Lease;
}

/** Objects with a cluster-wide resourceVersion and the full history of changes. */
export class FakeCluster {
  rv = 100;
  readonly objects = new Map<string, Lease>();
  readonly history: Change[] = [];
  /** Watches from a resourceVersion older than this get an in-stream 410. */
  oldestResumable = 0;
  private readonly listeners = new Set<(change: Change) => void>();

  create(name: string, holderIdentity = 'a'): Change {
    if (this.objects.has(name)) throw new Error(`${name} exists`);
    return this.commit('ADDED', name, holderIdentity);
  }

  update(name: string, holderIdentity: string): Change {
    if (!this.objects.has(name)) throw new Error(`${name} missing`);
    return this.commit('MODIFIED', name, holderIdentity);
  }

  remove(name: string): Change {
    const current = this.objects.get(name);
    if (current === undefined) throw new Error(`${name} missing`);
    return this.commit('DELETED', name, current.spec.holderIdentity ?? '');
  }

  /** Forgets history: resuming from any earlier resourceVersion now needs a re-list. */
  compact(): void {
    this.oldestResumable = this.rv;
  }

  eventsAfter(rv: number): Change[] | undefined {
    if (rv < this.oldestResumable) return undefined;
    return this.history.filter((change) => Number(change.object.metadata.resourceVersion) > rv);
  }

  list(): { items: Lease[]; resourceVersion: string } {
    const items = [...this.objects.values()].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
    return { items, resourceVersion: String(this.rv) };
  }

  subscribe(listener: (change: Change) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private commit(type: ChangeType, name: string, holderIdentity: string): Change {
    this.rv++;
    const object: Lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name, namespace: 'default', resourceVersion: String(this.rv), uid: `uid-${name}` },
      spec: { holderIdentity },
    };
    if (type === 'DELETED') this.objects.delete(name);
    else this.objects.set(name, object);
    const change: Change = { type, object };
    this.history.push(change);
    for (const listener of this.listeners) listener(change);
    return change;
  }
}

export function leaseOf(name: string, resourceVersion: string, holderIdentity = 'a'): Lease {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace: 'default', resourceVersion, uid: `uid-${name}` },
    spec: { holderIdentity },
  };
}

export function statusBody(code: number, reason: string, message = reason, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code, ...extra };
}

/** What one watch connection does. Plans are consumed in order; when none is left, connections follow live changes. */
export type WatchPlan =
  | { kind: 'follow'; replayBoundary?: boolean }
  | { kind: 'http-error'; status: number; body?: unknown; headers?: Record<string, string> }
  /** Replays `events` history events (then, for 'cut', half of the next line) and breaks the socket. */
  | { kind: 'cut'; events: number; midLine?: boolean; replayBoundary?: boolean }
  /** Replays `events` history events, then ends the response cleanly. */
  | { kind: 'end'; events: number; replayBoundary?: boolean }
  /** Sends headers and then nothing (or only bookmarks every `bookmarkEveryMs`), holding the connection open. */
  | { kind: 'idle'; bookmarkEveryMs?: number }
  /** Replays `events` history events, then an in-stream ERROR event with this Status. */
  | { kind: 'error-event'; events: number; status: Record<string, unknown> }
  /** Writes these raw lines (already serialised, '\n' added unless `noFinalNewline`) and ends. */
  | { kind: 'raw'; text: string }
  | { kind: 'custom'; run: (ctx: WatchContext) => void };

export interface WatchContext {
  readonly query: URLSearchParams;
  readonly res: ServerResponse;
  open(): void;
  send(line: unknown): void;
  write(text: string): void;
  end(): void;
  destroy(): void;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  watch: boolean;
}

export interface FaultServer {
  readonly url: string;
  readonly cluster: FakeCluster;
  readonly requests: RecordedRequest[];
  /** Plans for the next watch connections, consumed in order. */
  readonly watchPlans: WatchPlan[];
  /** Plans for the next LIST requests ('http-error' only); when empty, lists answer normally. */
  readonly listPlans: Array<{ status: number; body?: unknown; headers?: Record<string, string> }>;
  /** Watch responses currently open (from the server's point of view). */
  openWatches(): number;
  /** Resolves when the number of open watch responses reaches `count`. */
  waitForOpenWatches(count: number, timeoutMs?: number): Promise<void>;
  /** TCP connections currently open. */
  openSockets(): number;
  watchRequests(): RecordedRequest[];
  close(): Promise<void>;
}

export async function startFaultServer(cluster: FakeCluster = new FakeCluster()): Promise<FaultServer> {
  const requests: RecordedRequest[] = [];
  const watchPlans: WatchPlan[] = [];
  const listPlans: FaultServer['listPlans'] = [];
  const sockets = new Set<Socket>();
  const openResponses = new Set<ServerResponse>();
  const cleanups = new Set<() => void>();
  const waiters = new Set<() => void>();
  const notify = (): void => {
    for (const waiter of [...waiters]) waiter();
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const watch = url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1';
    requests.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, watch });
    if (url.pathname !== LEASES_PATH) return sendJson(res, 404, statusBody(404, 'NotFound', 'the server could not find the requested resource'));
    if (!watch) {
      const plan = listPlans.shift();
      if (plan !== undefined) return sendJson(res, plan.status, plan.body ?? statusBody(plan.status, 'Failure'), plan.headers);
      return sendJson(res, 200, { kind: 'LeaseList', apiVersion: 'coordination.k8s.io/v1', metadata: { resourceVersion: String(cluster.rv) }, items: cluster.list().items });
    }
    const plan = watchPlans.shift() ?? { kind: 'follow' };
    if (plan.kind === 'http-error') return sendJson(res, plan.status, plan.body ?? statusBody(plan.status, 'Failure'), plan.headers);

    openResponses.add(res);
    notify();
    const timers: NodeJS.Timeout[] = [];
    let unsubscribe = (): void => {};
    const cleanup = (): void => {
      for (const timer of timers) clearInterval(timer);
      unsubscribe();
    };
    cleanups.add(cleanup);
    res.on('close', () => {
      cleanup();
      cleanups.delete(cleanup);
      openResponses.delete(res);
      notify();
    });
    const ctx: WatchContext = {
      query: url.searchParams,
      res,
      open: () => {
        res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
        res.flushHeaders();
      },
      send: (line) => void res.write(`${JSON.stringify(line)}\n`),
      write: (text) => void res.write(text),
      end: () => res.end(),
      destroy: () => res.socket?.destroy(),
    };
    ctx.open();

    if (plan.kind === 'custom') return plan.run(ctx);
    if (plan.kind === 'raw') {
      ctx.write(plan.text);
      return ctx.end();
    }
    if (plan.kind === 'idle') {
      if (plan.bookmarkEveryMs !== undefined) {
        timers.push(setInterval(() => ctx.send({ type: 'BOOKMARK', object: bookmarkObject(cluster.rv) }), plan.bookmarkEveryMs));
      }
      return;
    }

    const rvText = url.searchParams.get('resourceVersion') ?? '';
    const from = rvText === '' ? cluster.rv : Number(rvText);
    const history = cluster.eventsAfter(from);
    if (history === undefined) {
      ctx.send({ type: 'ERROR', object: statusBody(410, 'Expired', `too old resource version: ${from} (${cluster.oldestResumable})`) });
      return ctx.end();
    }
    // Some servers replay the event at the resume point itself; the client must drop the duplicate.
    const boundary = 'replayBoundary' in plan && plan.replayBoundary === true ? cluster.history.filter((c) => c.object.metadata.resourceVersion === String(from)) : [];
    const replay = [...boundary, ...history];
    if (plan.kind === 'follow') {
      for (const change of replay) ctx.send(change);
      unsubscribe = cluster.subscribe((change) => ctx.send(change));
      return;
    }
    const count = Math.min(plan.events, replay.length);
    for (const change of replay.slice(0, count)) ctx.send(change);
    if (plan.kind === 'end') return ctx.end();
    if (plan.kind === 'error-event') {
      ctx.send({ type: 'ERROR', object: plan.status });
      return ctx.end();
    }
    // cut
    const next = replay[count];
    const partial = plan.midLine === false || next === undefined ? '' : JSON.stringify(next).slice(0, 40);
    res.write(partial, () => res.socket?.destroy());
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    cluster,
    requests,
    watchPlans,
    listPlans,
    openWatches: () => openResponses.size,
    openSockets: () => sockets.size,
    watchRequests: () => requests.filter((r) => r.watch),
    waitForOpenWatches: (count, timeoutMs = 5_000) =>
      new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (openResponses.size !== count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} open watches, have ${openResponses.size}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const cleanup of cleanups) cleanup();
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}

export function bookmarkObject(rv: number, annotations?: Record<string, string>): Record<string, unknown> {
  return { kind: 'Lease', apiVersion: 'coordination.k8s.io/v1', metadata: { resourceVersion: String(rv), ...(annotations === undefined ? {} : { annotations }) } };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Number of active timers in this process (Timeout handles), to check nothing was left behind. */
export function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
}

/** Polls `predicate` until it holds (or fails after `timeoutMs`). */
export async function eventually(predicate: () => boolean, timeoutMs = 5_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
