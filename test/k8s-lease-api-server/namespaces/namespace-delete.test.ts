// REST.Delete's parts (pkg/registry/core/namespace/storage/storage.go): the precondition wording,
// shouldHaveOrphanFinalizer / shouldHaveDeleteDependentsFinalizer, the mark (deletionTimestamp kept once
// set, phase Terminating, spec untouched), ShouldDeleteNamespaceDuringUpdate; and the lifecycle
// admission plugin's immortal namespaces (NewLifecycle(default, kube-system, kube-public)).
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';
import {
  admitNamespaceDelete,
  checkNamespacePreconditions,
  isReleased,
  markTerminating,
} from '../../../templates/k8s-lease-api-server/src/namespaces/namespace-delete.js';
import type { DeleteOptions } from '../../../templates/k8s-lease-api-server/src/operations/delete.js';

const NOW = Date.parse('2026-02-03T04:05:06Z');
const NS: JsonObject = {
  metadata: { name: 'team', uid: 'u1', resourceVersion: '7' },
  spec: { finalizers: ['kubernetes'] },
  status: { phase: 'Active' },
};
const opts = (more: Partial<DeleteOptions> = {}): DeleteOptions => ({ dryRun: false, preconditions: {}, ...more });

describe('namespace delete', () => {
  it('words precondition failures as REST.Delete does', () => {
    expect(checkNamespacePreconditions(NS, opts({ preconditions: { uid: 'u2' } }))).toMatchObject({
      ok: false,
      error: {
        code: 409,
        reason: 'Conflict',
        message:
          'Operation cannot be fulfilled on namespaces "team": Precondition failed: UID in precondition: u2, UID in object meta: u1',
      },
    });
    expect(checkNamespacePreconditions(NS, opts({ preconditions: { uid: 'u1', resourceVersion: '7' } }))).toEqual({
      ok: true,
      value: undefined,
    });
  });

  it('refuses only the three immortal namespaces', () => {
    for (const name of ['default', 'kube-system', 'kube-public'])
      expect(admitNamespaceDelete(name)).toMatchObject({ ok: false, error: { code: 403, reason: 'Forbidden' } });
    expect(admitNamespaceDelete('kube-node-lease').ok).toBe(true);
  });

  it('marks it Terminating with the finalizers the options imply', () => {
    const marked = markTerminating(NS, opts({ propagationPolicy: 'Foreground' }), NOW);
    expect(marked).toEqual({
      metadata: {
        name: 'team',
        uid: 'u1',
        resourceVersion: '7',
        deletionTimestamp: '2026-02-03T04:05:06Z',
        finalizers: ['foregroundDeletion'],
      },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Terminating' },
    });
    expect(markTerminating(NS, opts({ orphanDependents: true }), NOW)['metadata']).toMatchObject({
      finalizers: ['orphan'],
    });
    // No option: the finalizers already there stay (haveOrphanFinalizer), others are not added.
    const withOrphan = { ...NS, metadata: { name: 'team', finalizers: ['orphan', 'x.io/keep'] } };
    expect(markTerminating(withOrphan, opts(), NOW)['metadata']).toMatchObject({ finalizers: ['x.io/keep', 'orphan'] });
    expect(markTerminating(withOrphan, opts({ propagationPolicy: 'Background' }), NOW)['metadata']).toMatchObject({
      finalizers: ['x.io/keep'],
    });
  });

  it('releases a terminating namespace only with no spec or metadata finalizers', () => {
    const marked = markTerminating(NS, opts(), NOW);
    expect(isReleased(marked)).toBe(false);
    expect(isReleased({ ...marked, spec: {} })).toBe(true);
    expect(isReleased({ ...NS, spec: {} })).toBe(false);
  });
});
