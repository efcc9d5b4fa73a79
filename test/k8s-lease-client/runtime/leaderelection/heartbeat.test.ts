// runHeartbeat against the Lease API server with a virtual clock, after kubelet's node lease controller:
// k8s.io/component-helpers/apimachinery/lease/controller.go (sync, ensureLease, retryUpdateLease, newLease) with
// kubelet's newLeasePostProcessFunc, setNodeOwnerFunc (pkg/kubelet/util/nodelease.go).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  ElectionLease,
  ElectionOwnerReference,
  HeartbeatOptions,
} from '../../../../templates/k8s-lease-client/src/runtime/index.js';
import { runHeartbeat } from '../../../../templates/k8s-lease-client/src/runtime/index.js';
import type { LeaseApiServer } from '../../../../templates/k8s-lease-api-server/src/index.js';
import { start } from '../../../k8s-lease-api-server/helpers.js';
import type { WireRecord } from './harness.js';
import { processClient, run, settle, VirtualClock } from './harness.js';

const NS = 'kube-node-lease';
const SIX_DIGITS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
let server: LeaseApiServer;
let seq = 0;

beforeAll(async () => {
  // kubelet's Leases live in kube-node-lease (corev1.NamespaceNodeLease).
  server = await start({ namespaces: [NS] });
});
afterAll(() => server.close());
beforeEach(() => server.setFaults(undefined));

/** The reference setNodeOwnerFunc builds: core/v1 Node, by name and uid. */
const nodeOwner = (name: string): ElectionOwnerReference => ({
  apiVersion: 'v1',
  kind: 'Node',
  name,
  uid: `uid-${name}`,
});

interface Running {
  log: WireRecord[];
  renewed: ElectionLease[];
  errors: unknown[];
  stop: () => Promise<void>;
}

function heartbeat(clock: VirtualClock, name: string, extra: Partial<HeartbeatOptions> = {}): Running {
  const view = clock.view();
  const log: WireRecord[] = [];
  const renewed: ElectionLease[] = [];
  const errors: unknown[] = [];
  const cancel = new AbortController();
  const done = runHeartbeat({
    client: processClient(server.url, view, {}, log),
    namespace: NS,
    name,
    identity: name,
    clock: view,
    signal: cancel.signal,
    onRenew: (lease) => renewed.push(lease),
    onError: (e) => errors.push(e),
    ...extra,
  });
  return {
    log,
    renewed,
    errors,
    stop: async () => {
      cancel.abort();
      await done;
    },
  };
}

const stored = (name: string): Record<string, unknown> =>
  (server.store.get(NS, name) ?? {}) as unknown as Record<string, unknown>;
const metadataOf = (name: string): Record<string, unknown> => (stored(name).metadata ?? {}) as Record<string, unknown>;
const specOf = (name: string): Record<string, unknown> => (stored(name).spec ?? {}) as Record<string, unknown>;

function seed(name: string, metadata: Record<string, unknown>): void {
  const result = server.store.create({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { ...metadata, name, namespace: NS },
    spec: { holderIdentity: name, leaseDurationSeconds: 40 },
  });
  expect(result.ok).toBe(true);
}

describe('runHeartbeat (kubelet node lease controller)', () => {
  it('keeps renewing its own Lease: create, one PUT per interval, re-read after a conflict (controller.go sync, retryUpdateLease)', async () => {
    const clock = new VirtualClock();
    const name = `node-${++seq}`;
    const beat = heartbeat(clock, name);
    await settle();
    expect(specOf(name)).toMatchObject({ holderIdentity: name, leaseDurationSeconds: 40 });
    const first = specOf(name).renewTime;
    await run(clock, 20_000, 1_000);
    server.setFaults({ httpError: { status: 409, count: 1, when: (r) => r.verb === 'update' } });
    await run(clock, 10_000, 1_000);
    expect(beat.log.map((r) => `${r.method} ${r.status}`)).toEqual([
      'GET 404',
      'POST 201',
      'PUT 200',
      'PUT 200',
      'PUT 409',
      'GET 200',
      'PUT 200',
    ]);
    expect(specOf(name).renewTime).not.toBe(first);
    expect(specOf(name).renewTime).toMatch(SIX_DIGITS);
    expect(beat.errors).toEqual([]);
    await beat.stop();
  });

  it('creates the Lease with the owner reference (newLease runs newLeasePostProcessFunc = setNodeOwnerFunc before Create)', async () => {
    const clock = new VirtualClock();
    const name = `node-${++seq}`;
    const beat = heartbeat(clock, name, { ownerReference: nodeOwner(name) });
    await settle();
    expect(beat.log.map((r) => `${r.method} ${r.status}`)).toEqual(['GET 404', 'POST 201']);
    expect(metadataOf(name).ownerReferences).toEqual([nodeOwner(name)]);
    await run(clock, 10_000, 1_000);
    // Renewals keep it (the update starts from a copy of the Lease as last written: newLease(base) = base.DeepCopy()).
    expect(metadataOf(name).ownerReferences).toEqual([nodeOwner(name)]);
    expect(beat.errors).toEqual([]);
    await beat.stop();
  });

  it('adds the owner reference to an existing Lease that has none, on its first renewal (setNodeOwnerFunc: len(OwnerReferences) == 0)', async () => {
    const clock = new VirtualClock();
    const name = `node-${++seq}`;
    seed(name, {});
    expect(metadataOf(name).ownerReferences).toBeUndefined();
    const beat = heartbeat(clock, name, { ownerReference: nodeOwner(name) });
    await settle();
    expect(beat.log.map((r) => `${r.method} ${r.status}`)).toEqual(['GET 200', 'PUT 200']);
    expect(metadataOf(name).ownerReferences).toEqual([nodeOwner(name)]);
    expect(beat.renewed.at(-1)?.metadata?.ownerReferences).toEqual([nodeOwner(name)]);
    await beat.stop();
  });

  it('leaves an existing Lease’s owner references alone when it has any (setNodeOwnerFunc only fills an empty list)', async () => {
    const clock = new VirtualClock();
    const name = `node-${++seq}`;
    const other: ElectionOwnerReference = { apiVersion: 'v1', kind: 'Node', name: 'elsewhere', uid: 'uid-elsewhere' };
    seed(name, { ownerReferences: [other] });
    const beat = heartbeat(clock, name, { ownerReference: nodeOwner(name) });
    await settle();
    await run(clock, 10_000, 1_000);
    expect(metadataOf(name).ownerReferences).toEqual([other]);
    expect(beat.errors).toEqual([]);
    await beat.stop();
  });

  it('without an owner reference writes none (kubelet passes no newLeasePostProcessFunc when there is no Node to own it)', async () => {
    const clock = new VirtualClock();
    const name = `node-${++seq}`;
    const beat = heartbeat(clock, name);
    await run(clock, 10_000, 1_000);
    expect(metadataOf(name).ownerReferences).toBeUndefined();
    await beat.stop();
  });

  it('calls onRenew after each successful renewal with the Lease the server returned (controller.go retryUpdateLease: latestLease = the Update result)', async () => {
    const clock = new VirtualClock();
    const name = `node-${++seq}`;
    const beat = heartbeat(clock, name);
    await settle();
    await run(clock, 20_000, 1_000);
    // The create and two renewals, each the server's object: its resourceVersion is the one now stored.
    expect(beat.renewed).toHaveLength(3);
    const versions = beat.renewed.map((l) => l.metadata?.resourceVersion);
    expect(new Set(versions).size).toBe(3);
    expect(versions.at(-1)).toBe((metadataOf(name) as { resourceVersion?: string }).resourceVersion);
    expect(beat.renewed.at(-1)?.spec?.renewTime).toBe(specOf(name).renewTime);
    // A failed renewal (every retry refused) calls onError, not onRenew.
    server.setFaults({ httpError: { status: 500, count: 5, when: (r) => r.verb === 'update' } });
    await run(clock, 10_000, 1_000);
    expect(beat.renewed).toHaveLength(3);
    expect(beat.errors).toHaveLength(1);
    await beat.stop();
  });

  it('a throwing onRenew is reported to onError and the heartbeat goes on', async () => {
    const clock = new VirtualClock();
    const name = `node-${++seq}`;
    const boom = new Error('boom');
    const beat = heartbeat(clock, name, {
      onRenew: () => {
        throw boom;
      },
    });
    await settle();
    await run(clock, 20_000, 1_000);
    expect(beat.errors).toEqual([boom, boom, boom]);
    expect(beat.log.filter((r) => r.method === 'PUT')).toHaveLength(2);
    await beat.stop();
  });

  it.each([
    ['an empty uid', { ...nodeOwner('n'), uid: '' }],
    ['no kind', { apiVersion: 'v1', name: 'n', uid: 'u' } as unknown as ElectionOwnerReference],
  ])(
    'refuses an owner reference with %s (kube-apiserver ValidateOwnerReferences would reject each write)',
    async (_, owner) => {
      const clock = new VirtualClock();
      await expect(
        runHeartbeat({
          client: processClient(server.url, clock.view()),
          namespace: NS,
          name: 'never',
          identity: 'never',
          ownerReference: owner,
        }),
      ).rejects.toThrow(/ownerReference needs non-empty apiVersion, kind, name and uid/);
    },
  );
});
