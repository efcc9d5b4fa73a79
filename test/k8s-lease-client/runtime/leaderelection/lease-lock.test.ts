// The Lease as a lock, against the Lease API server: the cases of client-go's resourcelock/leaselock_test.go
// (TestGetError, TestGet, TestCreateError) and the optimistic concurrency of resourcelock/leaselock.go, whose
// Update sends the object of the last Get, Create or Update, so a write in between is a 409. Unlike client-go's,
// this lock keeps nothing: the caller passes the Lease to write over (TestUpdateError's "not initialized" cannot
// happen, the type asks for it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../../templates/k8s-lease-api-server/src/index.js';
import {
  isAlreadyExists,
  isConflict,
  isUnauthorized,
} from '../../../../templates/k8s-lease-client/src/runtime/errors.js';
import { leaseLock } from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/lease-lock.js';
import type {
  ElectionLeaseSpec,
  LockWrite,
} from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/lease-lock.js';
import { createClient } from '../../../../templates/k8s-lease-client/src/runtime/transport.js';
import type { Client } from '../../../../templates/k8s-lease-client/src/runtime/transport.js';
import { start } from '../../../k8s-lease-api-server/helpers.js';
import { asMicroTime } from '../../../../templates/k8s-lease-client/src/runtime/time.js';

const RECORD: ElectionLeaseSpec = {
  holderIdentity: 'baz',
  leaseDurationSeconds: 15,
  acquireTime: asMicroTime('2026-01-01T00:00:00.000000Z'),
  renewTime: asMicroTime('2026-01-01T00:00:00.000000Z'),
  leaseTransitions: 0,
};

let server: LeaseApiServer;
let client: Client;
/** Method and path of every request, in order. */
const sent: string[] = [];
let seq = 0;
/** A Lease name no other test uses. */
const fresh = (): string => `leaselock-${++seq}`;

beforeAll(async () => {
  // CoordinatedLeaderElection on, so the server keeps the preferredHolder and strategy an update must carry over.
  server = await start({ coordinatedLeaderElection: { resyncMs: 0 } });
  client = createClient({
    baseUrl: server.url,
    fetch: (input, init) => {
      sent.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
      return fetch(input, init);
    },
  });
});
afterAll(() => server.close());

function written(write: LockWrite): NonNullable<Extract<LockWrite, { ok: true }>['lease']> {
  if (!write.ok) throw write.error;
  return write.lease;
}

describe('leaseLock', () => {
  it('get of a Lease that does not exist is missing, not an error (TestGetError)', async () => {
    const lock = leaseLock(client, 'default', fresh());
    expect(await lock.get()).toEqual({ kind: 'missing' });
  });

  it('create writes a coordination.k8s.io/v1 Lease with the record, and get reads it back (TestGet)', async () => {
    const name = fresh();
    const lock = leaseLock(client, 'default', name);
    const created = written(await lock.create(RECORD));
    expect(created).toMatchObject({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name, namespace: 'default' },
      spec: RECORD,
    });
    const read = await leaseLock(client, 'default', name).get();
    expect(read).toEqual({ kind: 'found', lease: created });
  });

  it('create writes the metadata it is given (a heartbeat’s owner), name and namespace its own', async () => {
    const name = fresh();
    const owner = { apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: 'u-1' };
    const created = written(
      await leaseLock(client, 'default', name).create(RECORD, undefined, { ownerReferences: [owner] }),
    );
    expect(created.metadata).toMatchObject({ name, namespace: 'default', ownerReferences: [owner] });
  });

  it('create of a Lease that exists fails with AlreadyExists (TestCreateError), as a value', async () => {
    const name = fresh();
    written(await leaseLock(client, 'default', name).create(RECORD));
    const again = await leaseLock(client, 'default', name).create(RECORD);
    expect(again.ok).toBe(false);
    expect(!again.ok && isAlreadyExists(again.error)).toBe(true);
  });

  it('update PUTs the Lease it is given with the given fields replaced, keeping the others', async () => {
    const name = fresh();
    const lock = leaseLock(client, 'default', name);
    const created = written(
      await lock.create({ ...RECORD, preferredHolder: 'other', strategy: 'OldestEmulationVersion' }),
    );
    const before = sent.length;
    const renewed = written(await lock.update(created, { renewTime: asMicroTime('2026-01-01T00:00:02.000000Z') }));
    expect(sent.slice(before)).toEqual([`PUT /apis/coordination.k8s.io/v1/namespaces/default/leases/${name}`]);
    expect(renewed.spec).toEqual({
      ...RECORD,
      renewTime: asMicroTime('2026-01-01T00:00:02.000000Z'),
      preferredHolder: 'other',
      strategy: 'OldestEmulationVersion',
    });
    expect(Number(renewed.metadata?.resourceVersion)).toBeGreaterThan(Number(created.metadata?.resourceVersion));
  });

  it('update carries the resourceVersion of the Lease it is given: a write by someone else in between is a 409', async () => {
    const name = fresh();
    const mine = leaseLock(client, 'default', name);
    const created = written(await mine.create(RECORD));
    written(await leaseLock(client, 'default', name).update(created, { holderIdentity: 'other' }));
    const update = await mine.update(created, { renewTime: asMicroTime('2026-01-01T00:00:02.000000Z') });
    expect(!update.ok && isConflict(update.error)).toBe(true);
    // Over the Lease read again, the update goes through.
    const read = await mine.get();
    if (read.kind !== 'found') throw new Error(`expected the Lease, got ${read.kind}`);
    expect(written(await mine.update(read.lease, { holderIdentity: 'baz' })).spec?.holderIdentity).toBe('baz');
  });

  it('keeps nothing: two updates over the same Lease are two writes from the same resourceVersion', async () => {
    const name = fresh();
    const lock = leaseLock(client, 'default', name);
    const created = written(await lock.create(RECORD));
    written(await lock.update(created, { renewTime: asMicroTime('2026-01-01T00:00:02.000000Z') }));
    const again = await lock.update(created, { renewTime: asMicroTime('2026-01-01T00:00:04.000000Z') });
    expect(!again.ok && isConflict(again.error)).toBe(true);
  });

  it('update merges the metadata it is given into the given Lease’s metadata', async () => {
    const name = fresh();
    const lock = leaseLock(client, 'default', name);
    const created = written(await lock.create(RECORD));
    const owner = { apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: 'u-1' };
    const updated = written(await lock.update(created, {}, undefined, { ownerReferences: [owner] }));
    expect(updated.metadata).toMatchObject({ name, namespace: 'default', ownerReferences: [owner] });
  });

  it('a failed get is an error value; a name that is not one path segment is refused before any request', async () => {
    const guarded = await start({ token: 'right' });
    try {
      const read = await leaseLock(createClient({ baseUrl: guarded.url, token: 'wrong' }), 'default', 'x').get();
      expect(read.kind === 'error' && isUnauthorized(read.error)).toBe(true);
    } finally {
      await guarded.close();
    }
    const before = sent.length;
    expect(() => leaseLock(client, 'default', 'a/b')).toThrow();
    expect(sent.length).toBe(before);
  });
});
