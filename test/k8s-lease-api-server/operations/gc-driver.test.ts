// The garbage collector's driver: it works the queue off in slices between other work, and stop() leaves
// nothing scheduled.
import { setImmediate as nextTick } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';
import type { OperationContext } from '../../../templates/k8s-lease-api-server/src/operations/context.js';
import type { GarbageCollector } from '../../../templates/k8s-lease-api-server/src/operations/gc-driver.js';
import { startGarbageCollector } from '../../../templates/k8s-lease-api-server/src/operations/gc-driver.js';
import { context } from '../helpers/operation-context.js';

/** An owner marked for deletion with the orphan finalizer, and `count` dependents of it. */
function orphaningOwner(ctx: OperationContext, count: number): void {
  const deleting = { deletionTimestamp: '2024-05-01T10:00:00Z', deletionGracePeriodSeconds: 0 };
  ctx.store.commit('default/owner', {
    metadata: { name: 'owner', uid: 'u-owner', finalizers: ['orphan'], ...deleting },
  });
  const ownerReferences = [{ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', name: 'owner', uid: 'u-owner' }];
  for (let i = 0; i < count; i++)
    ctx.store.commit(`default/d${i}`, { metadata: { name: `d${i}`, uid: `u-d${i}`, ownerReferences } });
}

const owned = (obj: JsonObject | undefined): boolean =>
  obj !== undefined && JSON.stringify(obj).includes('"ownerReferences"');

describe('startGarbageCollector', () => {
  let collector: GarbageCollector | undefined;
  afterEach(() => collector?.stop());

  it('takes up an owner left waiting before it started, a slice at a time', async () => {
    const ctx = context();
    orphaningOwner(ctx, 5_000);
    collector = startGarbageCollector(ctx);
    expect(collector.pending).toBe(1);
    await nextTick();
    // One slice released some dependents, not all: the rest waits for later slices.
    const released = Array.from({ length: 5_000 }, (_, i) => ctx.store.get(`default/d${i}`)).filter((d) => !owned(d));
    expect(released.length).toBeGreaterThan(0);
    expect(released.length).toBeLessThan(5_000);
    await vi.waitFor(() => expect(ctx.store.get('default/owner')).toBeUndefined(), { timeout: 20_000 });
    expect(owned(ctx.store.get('default/d4999'))).toBe(false);
    // The owner's removal is itself an event the collector hears: the queue drains one slice later at most.
    await vi.waitFor(() => expect(collector?.pending).toBe(0), { timeout: 5_000 });
  });

  it('stops: the scheduled slice is cancelled and later store events are not followed', async () => {
    const ctx = context();
    orphaningOwner(ctx, 3);
    collector = startGarbageCollector(ctx);
    collector.stop();
    await nextTick();
    await nextTick();
    expect(ctx.store.get('default/owner')).toBeDefined();
    expect(owned(ctx.store.get('default/d0'))).toBe(true);
    ctx.store.commit('default/owner', undefined);
    expect(collector.pending).toBe(1);
  });
});
