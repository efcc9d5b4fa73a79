// etcd's request size limit (--max-request-bytes, 1.5 MiB by default) as kube-apiserver users meet it: a 500
// with etcd's text and no reason, after create, update and non-apply patch have retried without managedFields
// (endpoints/handlers/rest.go isTooLargeError).
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';
import { LEASE_RESOURCE } from '../../../templates/k8s-lease-api-server/src/lease-meta.js';
import {
  ETCD_MAX_REQUEST_BYTES,
  REQUEST_TOO_LARGE,
  sizedForStorage,
  storedSize,
} from '../../../templates/k8s-lease-api-server/src/operations/storage-size.js';

/** A Lease whose typed JSON is exactly `bytes` long, the padding in `spec.holderIdentity`. */
function leaseOfSize(bytes: number, managed: string): JsonObject {
  const base: JsonObject = {
    metadata: { name: 'a', managedFields: [{ manager: managed }] },
    spec: { holderIdentity: '' },
  };
  return { ...base, spec: { holderIdentity: 'x'.repeat(bytes - storedSize(base, LEASE_RESOURCE)) } };
}

describe('sizedForStorage', () => {
  it('stores an object of exactly the limit as it is', () => {
    const lease = leaseOfSize(ETCD_MAX_REQUEST_BYTES, 'm');
    expect(storedSize(lease, LEASE_RESOURCE)).toBe(ETCD_MAX_REQUEST_BYTES);
    expect(sizedForStorage(lease, LEASE_RESOURCE, false)).toEqual({ ok: true, value: lease });
  });

  it('drops managedFields when they alone make it too large and the write may, else answers the 500 of etcd', () => {
    const lease = leaseOfSize(ETCD_MAX_REQUEST_BYTES + 1, 'manager');
    expect(sizedForStorage(lease, LEASE_RESOURCE, true)).toEqual({
      ok: true,
      value: { metadata: { name: 'a' }, spec: lease['spec'] },
    });
    expect(sizedForStorage(lease, LEASE_RESOURCE, false)).toEqual({ ok: false, error: REQUEST_TOO_LARGE });
    const tooLarge = { metadata: { name: 'a' }, spec: { holderIdentity: 'x'.repeat(ETCD_MAX_REQUEST_BYTES) } };
    expect(sizedForStorage(tooLarge, LEASE_RESOURCE, true)).toEqual({ ok: false, error: REQUEST_TOO_LARGE });
    expect(REQUEST_TOO_LARGE).toEqual({ code: 500, reason: '', message: 'etcdserver: request is too large' });
  });

  it('counts UTF-8 bytes', () => {
    expect(storedSize({ spec: { holderIdentity: 'é' } }, LEASE_RESOURCE)).toBe(
      storedSize({ spec: { holderIdentity: 'ab' } }, LEASE_RESOURCE),
    );
  });
});
