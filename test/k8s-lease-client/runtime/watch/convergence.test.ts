// The proof: 10,000 changes to 200 Leases on the Lease API test server while an informer watches them
// over connections the server cuts mid-line every 50–500 events (its watch fault scripts), with a small history window
// and forced compactions (so resumes hit 410 and re-list). The informer must end equal to the
// server, see every object's resourceVersions strictly increase, get no change twice and miss none
// that a reported RESYNC did not cover.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../../templates/k8s-lease-client/src/runtime/transport.js';
import type { Client } from '../../../../templates/k8s-lease-client/src/runtime/transport.js';
import { createInformer } from '../../../../templates/k8s-lease-client/src/runtime/watch/informer.js';
import type { WatchResyncInfo } from '../../../../templates/k8s-lease-client/src/runtime/watch/watch-options.js';
import { startLeaseApiServer } from '../../../../templates/k8s-lease-api-server/src/index.js';
import type { LeaseApiServer, WatchFault } from '../../../../templates/k8s-lease-api-server/src/index.js';
import { eventually } from './helpers/lease-server.js';
import { seededRandom } from '../../../helpers/seeded-random.js';

const NAMESPACE = 'default';
const PATH = `/apis/coordination.k8s.io/v1/namespaces/${NAMESPACE}/leases`;
const LEASES = 200;
const CHANGES = 10_000;
const WRITERS = 8;
const SEED = Number(process.env['WATCH_SEED'] ?? Date.now() % 1_000_000);
/** The reference watch's User-Agent: the fault scripts leave it alone. */
const REFERENCE_AGENT = 'reference-watch';

interface Lease {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; namespace?: string; resourceVersion?: string };
  spec?: { holderIdentity?: string };
}

type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';
interface TruthChange {
  name: string;
  type: ChangeType;
  rv: number;
}
interface Seen {
  kind: 'add' | 'update' | 'delete';
  rv: number;
  /** Derived from a RESYNC diff rather than a watch event. */
  fromResync: boolean;
}

/**
 * The truth: every change as the server's own watch reports it, read directly (no faults)
 * with a plain fetch + line split + JSON.parse, independent of the code under test.
 */
async function referenceWatch(
  baseUrl: string,
  fromRv: string,
  signal: AbortSignal,
  onChange: (change: TruthChange) => void,
): Promise<void> {
  const response = await fetch(`${baseUrl}${PATH}?watch=true&resourceVersion=${fromRv}`, {
    signal,
    headers: { 'User-Agent': REFERENCE_AGENT },
  });
  if (!response.ok || response.body === null) throw new Error(`reference watch: ${response.status}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (error) {
      if (signal.aborted) return;
      throw error;
    }
    if (chunk.done) throw new Error('reference watch ended');
    buffer += decoder.decode(chunk.value, { stream: true });
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '') continue;
      const event = JSON.parse(line) as { type: string; object: Lease };
      if (event.type === 'BOOKMARK') continue;
      if (event.type !== 'ADDED' && event.type !== 'MODIFIED' && event.type !== 'DELETED')
        throw new Error(`reference watch: ${line}`);
      onChange({
        name: event.object.metadata.name,
        type: event.type,
        rv: Number(event.object.metadata.resourceVersion),
      });
    }
  }
}

let server: LeaseApiServer;
let writer: Client;
let cuts = 0;

beforeAll(async () => {
  server = await startLeaseApiServer({ port: 0, historyWindow: 300, bookmarkIntervalMs: 100 });
  const random = seededRandom(SEED);
  // Each informer connection is cut in the middle of a line after 50–500 events (far more scripts than connections).
  const plans: WatchFault[] = Array.from({ length: 2_000 }, () => ({
    kind: 'cut',
    afterEvents: 50 + Math.floor(random() * 451),
    midLine: true,
    when: (r) => r.headers['user-agent'] !== REFERENCE_AGENT,
  }));
  server.setFaults({
    watch: plans,
    // Every 4th cut also compacts the history: the resume is then (most likely) too old and gets a 410.
    onWatchFault: (fault) => {
      if (fault.kind === 'cut' && ++cuts % 4 === 0) server.store.compact();
    },
  });
  writer = createClient({ baseUrl: server.url });
});
afterAll(async () => {
  await server?.close();
});

describe('convergence under faults (Lease API server cutting its watch connections)', () => {
  it(`an informer converges on ${CHANGES} changes to ${LEASES} Leases with random cuts and forced 410s (seed ${SEED})`, async () => {
    const random = seededRandom(SEED ^ 0x5eed);
    const truth: TruthChange[] = [];
    const written: Array<{ name: string; type: ChangeType }> = [];
    const seen = new Map<string, Seen[]>();
    const resyncs: Array<{ info: WatchResyncInfo; before: number; state: Map<string, number> }> = [];
    const errors: unknown[] = [];
    let inResync = false;
    let deliveredMax = 0;
    let resyncWindowStart = 0;
    let disconnects = 0;

    const record = (kind: Seen['kind'], lease: Lease): void => {
      const rv = Number(lease.metadata.resourceVersion);
      const list = seen.get(lease.metadata.name) ?? [];
      list.push({ kind, rv, fromResync: inResync });
      seen.set(lease.metadata.name, list);
      if (!inResync && rv > deliveredMax) deliveredMax = rv;
    };

    const consumer = createClient({ baseUrl: server.url });
    const informer = createInformer<Lease>(
      consumer,
      { path: PATH },
      {
        onAdd: (o) => record('add', o),
        onUpdate: (_old, o) => record('update', o),
        onDelete: (o) => record('delete', o),
        onResync: (info) => {
          inResync = false;
          resyncs.push({
            info,
            before: resyncWindowStart,
            state: new Map(informer.list().map((o) => [o.metadata.name, Number(o.metadata.resourceVersion)])),
          });
        },
        onError: (error) => errors.push(error),
      },
      {
        reconnect: { initialDelayMs: 5, maxDelayMs: 50 },
        onDisconnect: () => disconnects++,
        // Called by the watch just before the RESYNC is yielded, i.e. before the informer diffs.
        onResync: () => {
          inResync = true;
          resyncWindowStart = deliveredMax;
        },
      },
    );
    const started = Date.now();
    const stopReference = new AbortController();
    const referenceDone = referenceWatch(server.url, server.store.resourceVersion, stopReference.signal, (change) =>
      truth.push(change),
    );
    await informer.start();

    // Writers own disjoint sets of Leases, so every write succeeds and the truth log is exact.
    const perWriter = CHANGES / WRITERS;
    const compactAt = new Set([Math.floor(perWriter * 0.3), Math.floor(perWriter * 0.6), Math.floor(perWriter * 0.9)]);
    const writerLoop = async (w: number): Promise<void> => {
      const names = Array.from({ length: LEASES / WRITERS }, (_, i) => `lease-${w}-${i}`);
      const exists = new Set<string>();
      const rvs = new Map<string, string>();
      for (let i = 0; i < perWriter; i++) {
        if (w === 0 && compactAt.has(i)) server.store.compact();
        const name = names[Math.floor(random() * names.length)] ?? 'lease-x';
        let type: ChangeType;
        if (!exists.has(name)) {
          type = 'ADDED';
          const created = await writer.request<Lease>({
            method: 'POST',
            path: PATH,
            body: JSON.stringify({
              apiVersion: 'coordination.k8s.io/v1',
              kind: 'Lease',
              metadata: { name },
              spec: { holderIdentity: `w${w}-${i}` },
            }),
          });
          exists.add(name);
          rvs.set(name, created.metadata?.resourceVersion ?? '');
        } else if (random() < 0.75) {
          type = 'MODIFIED';
          // A Lease update carries the resourceVersion it read (AllowUnconditionalUpdate is false).
          const replaced = await writer.request<Lease>({
            method: 'PUT',
            path: `${PATH}/${name}`,
            body: JSON.stringify({
              apiVersion: 'coordination.k8s.io/v1',
              kind: 'Lease',
              metadata: { name, namespace: NAMESPACE, resourceVersion: rvs.get(name) },
              spec: { holderIdentity: `w${w}-${i}` },
            }),
          });
          rvs.set(name, replaced.metadata?.resourceVersion ?? '');
        } else {
          type = 'DELETED';
          await writer.request<unknown>({ method: 'DELETE', path: `${PATH}/${name}` });
          exists.delete(name);
        }
        written.push({ name, type });
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writerLoop(w)));
    const writesDone = Date.now();

    // Converge: the informer's cache equals the server's storage, name → resourceVersion.
    const serverState = (): Record<string, string> =>
      Object.fromEntries(
        server.store
          .list(NAMESPACE)
          .map((l) => [l.metadata.name ?? '', l.metadata.resourceVersion ?? ''])
          .sort(),
      );
    const informerState = (): Record<string, string> =>
      Object.fromEntries(
        informer
          .list()
          .map((l) => [l.metadata.name, l.metadata.resourceVersion ?? ''])
          .sort(),
      );
    await eventually(
      () => JSON.stringify(informerState()) === JSON.stringify(serverState()),
      20_000,
      'the informer to converge',
    ).catch(() => undefined);
    expect(informerState()).toEqual(serverState());
    await informer.stop();
    await eventually(() => truth.length >= CHANGES, 10_000, 'the reference watch');
    stopReference.abort();
    await referenceDone;

    // The reference watch saw exactly the writes (per object, in order).
    expect(truth).toHaveLength(CHANGES);
    const byName = (changes: ReadonlyArray<{ name: string; type: ChangeType }>): Record<string, string> => {
      const out: Record<string, string> = {};
      for (const c of changes) out[c.name] = `${out[c.name] ?? ''}${c.type[0] ?? ''}`;
      return out;
    };
    expect(byName(truth)).toEqual(byName(written));

    // The faults really happened.
    expect(cuts).toBeGreaterThanOrEqual(10);
    expect(disconnects).toBeGreaterThanOrEqual(cuts);
    expect(resyncs.length).toBeGreaterThanOrEqual(1);
    expect(errors).toEqual([]);

    // Truth per name, in order.
    const truthByName = new Map<string, TruthChange[]>();
    for (const change of [...truth].sort((a, b) => a.rv - b.rv)) {
      const list = truthByName.get(change.name) ?? [];
      list.push(change);
      truthByName.set(change.name, list);
    }
    const inResyncWindow = (rv: number): boolean =>
      resyncs.some((r) => rv > r.before && rv <= Number(r.info.resourceVersion));

    let delivered = 0;
    let coveredByResync = 0;
    for (const [name, changes] of truthByName) {
      const events = seen.get(name) ?? [];
      // Strictly increasing resourceVersions per object, except a RESYNC-derived delete, which carries the last known state.
      let last = 0;
      for (const event of events) {
        if (event.fromResync && event.kind === 'delete') continue;
        expect(event.rv, `${name}: resourceVersions must increase (${JSON.stringify(events)})`).toBeGreaterThan(last);
        last = event.rv;
      }
      const watched = events.filter((e) => !e.fromResync);
      const watchedRvs = new Set(watched.map((e) => e.rv));
      expect(watchedRvs.size, `${name}: a change was delivered twice`).toBe(watched.length);
      for (const change of changes) {
        if (watchedRvs.has(change.rv)) {
          delivered++;
          const event = watched.find((e) => e.rv === change.rv);
          expect(
            event?.kind === 'delete',
            `${name}@${change.rv}: delivered as ${event?.kind}, was ${change.type}`,
          ).toBe(change.type === 'DELETED');
          watchedRvs.delete(change.rv);
        } else {
          expect(
            inResyncWindow(change.rv),
            `${name}@${change.rv} (${change.type}) was missed and no RESYNC covers it`,
          ).toBe(true);
          coveredByResync++;
        }
      }
      // Nothing delivered that did not happen.
      expect([...watchedRvs], `${name}: events that match no change`).toEqual([]);
    }

    // After each RESYNC the cache was exactly the server's state at the resync's resourceVersion.
    for (const { info, state } of resyncs) {
      const at = Number(info.resourceVersion);
      const expected = new Map<string, number>();
      for (const [name, changes] of truthByName) {
        const lastChange = changes.filter((c) => c.rv <= at).at(-1);
        if (lastChange !== undefined && lastChange.type !== 'DELETED') expected.set(name, lastChange.rv);
      }
      expect(Object.fromEntries([...state].sort()), `state after RESYNC@${at}`).toEqual(
        Object.fromEntries([...expected].sort()),
      );
    }

    expect(delivered + coveredByResync).toBe(CHANGES);
    console.log(
      `seed ${SEED}: ${CHANGES} changes in ${writesDone - started} ms, ${cuts} cuts, ${disconnects} disconnects, ${resyncs.length} resyncs, ` +
        `${delivered} delivered as events, ${coveredByResync} covered by resyncs, converged ${Date.now() - writesDone} ms after the last write`,
    );
  }, 60_000);
});
