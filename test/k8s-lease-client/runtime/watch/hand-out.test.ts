import { describe, expect, it } from 'vitest';
import { Batch } from '../../../../templates/k8s-lease-client/src/runtime/watch/batch.js';
import { Deduplicator } from '../../../../templates/k8s-lease-client/src/runtime/watch/deduplicator.js';
import { handOut } from '../../../../templates/k8s-lease-client/src/runtime/watch/hand-out.js';
import type { WatchResyncInfo } from '../../../../templates/k8s-lease-client/src/runtime/watch/watch-options.js';

type Obj = { metadata: { name: string; resourceVersion: string } };
const a: Obj = { metadata: { name: 'a', resourceVersion: '5' } };
const b: Obj = { metadata: { name: 'b', resourceVersion: '6' } };

describe('handOut: a complete state as what the watch yields for it', () => {
  it('the initial state: one batch of ADDED, in order, and no onResync', () => {
    const resyncs: WatchResyncInfo[] = [];
    const out = handOut(
      { kind: 'deliver', objects: [a, b], resourceVersion: '7', reason: undefined },
      true,
      new Deduplicator(),
      { onResync: (info) => resyncs.push(info) },
    );
    expect(out).toBeInstanceOf(Batch);
    expect((out as Batch<Obj>).events).toEqual([
      { type: 'ADDED', object: a },
      { type: 'ADDED', object: b },
    ]);
    expect(resyncs).toEqual([]);
  });

  it('after a 410: onResync, then the RESYNC that carries the whole state', () => {
    const resyncs: WatchResyncInfo[] = [];
    const objects = [a, b];
    const out = handOut(
      { kind: 'deliver', objects, resourceVersion: '9', reason: 'Expired' },
      true,
      new Deduplicator(),
      {
        onResync: (info) => resyncs.push(info),
      },
    );
    expect(out).toEqual({ type: 'RESYNC', objects, resourceVersion: '9', reason: 'Expired' });
    expect(resyncs).toEqual([{ reason: 'Expired', resourceVersion: '9', objects: 2 }]);
  });

  it('calls onResync as a method of the options, as the other callbacks are', () => {
    const options = {
      calls: [] as unknown[],
      onResync(this: { calls: unknown[] }) {
        this.calls.push('resync');
      },
    };
    handOut({ kind: 'deliver', objects: [], resourceVersion: '9', reason: 'Gone' }, true, new Deduplicator(), options);
    expect(options.calls).toEqual(['resync']);
  });

  it.each<[string, boolean, string, boolean]>([
    ['read next from a new connection at a decimal resourceVersion: the watermark drops replays', true, '7', true],
    ['read next on the same, unordered, connection: the deduplicator must remember the state', false, '7', false],
    ['read next from "0", unordered: remembered', true, '0', false],
    ['read next from an opaque resourceVersion: remembered', true, 'x7', false],
  ])('%s', (_name, watermarked, resourceVersion, replayPasses) => {
    const seen = new Deduplicator();
    // Memory from before the sync is gone either way.
    seen.accept({ metadata: { name: 'z', resourceVersion: '3' } });
    handOut({ kind: 'deliver', objects: [a], resourceVersion, reason: undefined }, watermarked, seen, {});
    expect(seen.accept({ metadata: { name: 'z', resourceVersion: '3' } })).toBe(true);
    expect(seen.accept(a)).toBe(replayPasses);
  });
});
