// The checks that tie a body to its URL and a write to its preconditions, worded as kube-apiserver words them:
// endpoints/handlers/rest.go (EnsureObjectNamespaceMatchesRequestNamespace, checkName), storage.Preconditions.Check
// (interfaces.go) seen through storeerr as a Conflict quoting the StorageError, and rest.BeforeDelete's conflicts.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';
import { LEASE_RESOURCE } from '../../../templates/k8s-lease-api-server/src/lease-meta.js';
import {
  bindToRequest,
  checkDeletePreconditions,
  checkStoragePreconditions,
  checkUpdatePreconditions,
  etcdKey,
  finalizersOf,
} from '../../../templates/k8s-lease-api-server/src/operations/identity.js';

const live: JsonObject = {
  metadata: { name: 'a', namespace: 'ns', uid: 'u1', resourceVersion: '7', finalizers: ['x', 3] },
};

describe('bindToRequest', () => {
  it('sets the URL namespace, accepting an empty or equal one in the body', () => {
    expect(bindToRequest({ metadata: { name: 'a' } }, 'ns', 'a')).toEqual({
      ok: true,
      value: { metadata: { name: 'a', namespace: 'ns' } },
    });
    expect(bindToRequest({ metadata: { namespace: 'ns' } }, 'ns', undefined).ok).toBe(true);
    expect(bindToRequest({}, 'ns', undefined)).toEqual({ ok: true, value: { metadata: { namespace: 'ns' } } });
  });

  it('refuses another namespace before another name, both 400', () => {
    expect(bindToRequest({ metadata: { name: 'b', namespace: 'other' } }, 'ns', 'a')).toEqual({
      ok: false,
      error: {
        code: 400,
        reason: 'BadRequest',
        message: 'the namespace of the provided object does not match the namespace sent on the request',
      },
    });
    const named = bindToRequest({ metadata: { name: 'b' } }, 'ns', 'a');
    expect(named.ok ? '' : named.error.message).toBe(
      'the name of the object (b) does not match the name on the URL (a)',
    );
  });
});

describe('storage preconditions', () => {
  it('check the uid first, then the resourceVersion, as a Conflict quoting the StorageError', () => {
    expect(checkStoragePreconditions(live, { uid: 'u1', resourceVersion: '7' }, LEASE_RESOURCE, 'ns', 'a').ok).toBe(
      true,
    );
    const both = checkStoragePreconditions(live, { uid: 'u2', resourceVersion: '1' }, LEASE_RESOURCE, 'ns', 'a');
    expect(both.ok ? '' : both.error.message).toBe(
      'Operation cannot be fulfilled on leases.coordination.k8s.io "a": StorageError: invalid object, Code: 4, Key: /registry/leases/ns/a, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: u2, UID in object meta: u1',
    );
    const rv = checkStoragePreconditions(live, { resourceVersion: '1' }, LEASE_RESOURCE, 'ns', 'a');
    expect(rv.ok ? '' : rv.error.message).toMatch(
      /AdditionalErrorMsg: Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: 7$/,
    );
    expect(etcdKey({ plural: 'leasecandidates' }, 'kube-system', 'c')).toBe('/registry/leasecandidates/kube-system/c');
  });

  it('on delete, name the kind in the Conflict (rest.BeforeDelete)', () => {
    const uid = checkDeletePreconditions(live, 'a', { uid: 'u2' }, LEASE_RESOURCE);
    expect(uid.ok ? undefined : uid.error).toMatchObject({
      code: 409,
      message:
        'Operation cannot be fulfilled on Lease.coordination.k8s.io "a": the UID in the precondition (u2) does not match the UID in record (u1). The object might have been deleted and then recreated',
    });
    const rv = checkDeletePreconditions(live, 'a', { resourceVersion: '1' }, LEASE_RESOURCE);
    expect(rv.ok ? '' : rv.error.message).toBe(
      'Operation cannot be fulfilled on Lease.coordination.k8s.io "a": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (7). The object might have been modified',
    );
  });

  it('on update, take the body uid as a precondition and refuse a stale resourceVersion', () => {
    expect(checkUpdatePreconditions({ metadata: { resourceVersion: '' } }, live, 'a').ok).toBe(true);
    expect(checkUpdatePreconditions({ metadata: { uid: 'u1', resourceVersion: '7' } }, live, 'a').ok).toBe(true);
    const stale = checkUpdatePreconditions({ metadata: { resourceVersion: '6' } }, live, 'a');
    expect(stale.ok ? '' : stale.error.message).toBe(
      'Operation cannot be fulfilled on leases.coordination.k8s.io "a": the object has been modified; please apply your changes to the latest version and try again',
    );
    const uid = checkUpdatePreconditions({ metadata: { uid: 'other', resourceVersion: '6' } }, live, 'a');
    expect(uid.ok ? '' : uid.error.message).toContain('UID in precondition: other, UID in object meta: u1');
  });
});

describe('finalizersOf', () => {
  it('reads the string finalizers', () => {
    expect(finalizersOf(live)).toEqual(['x']);
    expect(finalizersOf({})).toEqual([]);
  });
});
