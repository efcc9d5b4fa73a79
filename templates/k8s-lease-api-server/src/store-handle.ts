// The programmatic store API offered to tests and benchmarks: same validation, ownership and
// events as HTTP writes, without the HTTP round trip.
import type { JsonObject } from './json.js';
import { parseJson, stringAt } from './json.js';
import { decodeValue } from './operations/decode-body.js';
import type { OperationContext, WriteOptions } from './operations/context.js';
import { createLease } from './operations/create.js';
import { deleteLease } from './operations/delete.js';
import { metadataOf } from './operations/identity.js';
import { updateLease } from './operations/update.js';
import type { LeaseStoreHandle, StoreWrite } from './options.js';
import type { Result } from './result.js';
import { err, ok } from './result.js';
import { typedJson } from './serialize.js';
import type { StatusError } from './status.js';
import { storeKey } from './store/lease-store.js';
import type { Lease } from './types.js';

const DEFAULT_MANAGER = 'lease-api-test';

function toLease(obj: JsonObject): Lease {
  const lease: Lease = JSON.parse(typedJson(obj));
  return lease;
}

function decode(ctx: OperationContext, lease: Lease): Result<JsonObject, StatusError> {
  const decoded = decodeValue(parseJson(JSON.stringify(lease)), [], ctx.schema, 'Ignore');
  return decoded.ok ? ok(decoded.value.lease) : decoded;
}

function written(result: Result<{ object: JsonObject }, StatusError>): StoreWrite {
  return result.ok ? ok(toLease(result.value.object)) : err(result.error);
}

export function createStoreHandle(ctx: OperationContext): LeaseStoreHandle {
  const options = (fieldManager: string | undefined): WriteOptions => ({
    dryRun: false,
    fieldManager: fieldManager ?? DEFAULT_MANAGER,
    fieldValidation: 'Ignore',
  });
  return {
    get resourceVersion(): string {
      return String(ctx.store.resourceVersion);
    },
    get size(): number {
      return ctx.store.size;
    },
    get(namespace, name) {
      const obj = ctx.store.get(storeKey(namespace, name));
      return obj === undefined ? undefined : toLease(obj);
    },
    list(namespace) {
      return ctx.store.current().objectsIn(namespace).map(toLease);
    },
    create(lease, fieldManager) {
      const body = decode(ctx, lease);
      if (!body.ok) return body;
      const namespace = stringAt(metadataOf(body.value), 'namespace') ?? 'default';
      return written(createLease(ctx, namespace, body.value, options(fieldManager)));
    },
    update(lease, fieldManager) {
      const body = decode(ctx, lease);
      if (!body.ok) return body;
      const meta = metadataOf(body.value);
      const namespace = stringAt(meta, 'namespace') ?? 'default';
      const name = stringAt(meta, 'name') ?? '';
      // A convenience of the handle, unlike PUT: without a resourceVersion the update is unconditional.
      const live = ctx.store.get(storeKey(namespace, name));
      const liveRv = live === undefined ? undefined : stringAt(metadataOf(live), 'resourceVersion');
      const sent =
        stringAt(meta, 'resourceVersion') === undefined && liveRv !== undefined
          ? { ...body.value, metadata: { ...meta, resourceVersion: liveRv } }
          : body.value;
      return written(updateLease(ctx, namespace, name, sent, options(fieldManager)));
    },
    delete(namespace, name) {
      const deleted = deleteLease(ctx, namespace, name, { dryRun: false, preconditions: {} });
      return deleted.ok ? ok(toLease(deleted.value.object)) : deleted;
    },
    compact() {
      ctx.store.compact();
    },
  };
}
