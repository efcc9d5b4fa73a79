// The namespace controller's pure step, against pkg/controller/namespace/deletion/namespaced_resources_deleter.go:
// Delete returns early for a namespace gone or not being deleted; deleteAllContent deletes what is left,
// then (estimate 0) finalizeNamespace removes the "kubernetes" token from spec.finalizers; objects held by
// finalizers keep the namespace (ResourcesRemainingError) with NamespaceContentRemaining /
// NamespaceFinalizersRemaining set by ProcessContentTotals.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';
import type { Observation } from '../../../templates/k8s-lease-api-server/src/namespaces/namespace-controller.js';
import { enqueue, step } from '../../../templates/k8s-lease-api-server/src/namespaces/namespace-controller.js';

const NOW = Date.parse('2026-02-03T04:05:06Z');
const EMPTY = { remaining: {}, finalizers: {}, failures: [] };

function terminating(extra: JsonObject = {}): JsonObject {
  return {
    metadata: { name: 'team', deletionTimestamp: '2026-02-03T04:05:00Z', ...extra },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Terminating' },
  };
}

function observed(namespace: JsonObject | undefined, more: Partial<Observation> = {}): Observation {
  return { namespace, deletable: [], complete: true, totals: EMPTY, now: NOW, ...more };
}

describe('namespace controller step', () => {
  it('queues each namespace once', () => {
    const state = enqueue(enqueue(enqueue({ queue: [] }, 'a'), 'b'), 'a');
    expect(state.queue).toEqual(['a', 'b']);
  });

  it('drops a namespace that is gone or not terminating', () => {
    expect(step({ queue: ['team'] }, observed(undefined))).toEqual({ state: { queue: [] }, effects: [], pace: 'idle' });
    const active = { metadata: { name: 'team' }, spec: { finalizers: ['kubernetes'] } };
    expect(step({ queue: ['team', 'b'] }, observed(active))).toEqual({
      state: { queue: ['b'] },
      effects: [],
      pace: 'continue',
    });
  });

  it('deletes the observed slice and comes back to the namespace after the others', () => {
    const deletable = [{ resource: 'v1/leases', key: 'team/a' }];
    expect(step({ queue: ['team', 'b'] }, observed(terminating(), { deletable, complete: false }))).toEqual({
      state: { queue: ['b', 'team'] },
      effects: [{ kind: 'delete', items: deletable }],
      pace: 'continue',
    });
  });

  it('keeps looking while a look was partial, without touching the conditions', () => {
    const result = step({ queue: ['team'] }, observed(terminating(), { complete: false }));
    expect(result).toEqual({ state: { queue: ['team'] }, effects: [], pace: 'continue' });
  });

  it('sets the remaining conditions and waits while finalizers hold content', () => {
    const totals = { remaining: { 'leases.coordination.k8s.io': 2 }, finalizers: { 'x.io/y': 2 }, failures: [] };
    const result = step({ queue: ['team'] }, observed(terminating(), { totals }));
    expect(result.pace).toBe('wait');
    expect(result.state).toEqual({ queue: ['team'] });
    expect(result.effects).toHaveLength(1);
    const [effect] = result.effects;
    expect(effect?.kind).toBe('setConditions');
    const conditions = effect?.kind === 'setConditions' ? effect.conditions : [];
    expect(conditions).toContainEqual({
      type: 'NamespaceFinalizersRemaining',
      status: 'True',
      lastTransitionTime: '2026-02-03T04:05:06Z',
      reason: 'SomeFinalizerRemain',
      message: 'Some finalizers are remaining: x.io/y in 2 resource instances',
    });
  });

  it('once empty: conditions to their ok form, the kubernetes finalizer off, the GC finalizers released', () => {
    const ns = terminating({ finalizers: ['orphan'] });
    (ns['spec'] as JsonObject)['finalizers'] = ['kubernetes', 'example.com/other'];
    const result = step({ queue: ['team'] }, observed(ns));
    expect(result.state).toEqual({ queue: [] });
    expect(result.effects.map((e) => e.kind)).toEqual(['setConditions', 'finalize', 'releaseGcFinalizers']);
    expect(result.effects[1]).toEqual({ kind: 'finalize', name: 'team', finalizers: ['example.com/other'] });
  });

  it('writes no conditions when they already say the same', () => {
    const first = step({ queue: ['team'] }, observed(terminating()));
    const conditions = first.effects[0]?.kind === 'setConditions' ? first.effects[0].conditions : [];
    const ns = { ...terminating(), status: { phase: 'Terminating', conditions } };
    expect(step({ queue: ['team'] }, observed(ns, { now: NOW + 60_000 })).effects.map((e) => e.kind)).toEqual([
      'finalize',
    ]);
  });
});
