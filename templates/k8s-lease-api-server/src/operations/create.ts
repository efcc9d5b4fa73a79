// POST: a new Lease gets its server-owned metadata here (uid, creationTimestamp, managedFields).
// No generation: the Lease strategy (pkg/registry/coordination/lease/strategy.go) never sets one and
// rest.BeforeCreate leaves metadata.generation as sent.
import { randomUUID } from 'node:crypto';
import type { JsonObject } from '../json.js';
import { stringAt } from '../json.js';
import { canonicalLease } from '../lease-shape.js';
import { managedFieldsAfterUpdate } from '../managed/field-manager.js';
import { fieldManagerFor } from '../managed/resource-field-manager.js';
import { namespaceNotFound, namespaceTerminating } from '../namespaces/namespace-errors.js';
import { generateNameSuffix } from '../names.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { StatusError } from '../status.js';
import { internalError } from '../status.js';
import { storeKey } from '../store/lease-store.js';
import { formatTime } from '../time.js';
import type { OperationContext, WriteOptions } from './context.js';
import { bindToRequest, metadataOf } from './identity.js';
import type { PersistOutcome } from './persist.js';
import { persistCreate } from './persist.js';

const MAX_GENERATED_PREFIX_BYTES = 63 - 5;

function resolveName(ctx: OperationContext, namespace: string, meta: JsonObject): string {
  const name = stringAt(meta, 'name') ?? '';
  const generateName = stringAt(meta, 'generateName') ?? '';
  if (name !== '' || generateName === '') return name;
  // SimpleNameGenerator: the prefix is cut to 58 bytes so the 5 random characters keep the name within 63.
  const prefix = Buffer.from(generateName, 'utf8').subarray(0, MAX_GENERATED_PREFIX_BYTES).toString('utf8');
  for (;;) {
    const candidate = `${prefix}${generateNameSuffix()}`;
    if (ctx.store.get(storeKey(namespace, candidate)) === undefined) return candidate;
  }
}

/** Builds the stored form of a new Lease from a decoded body and the ownership computed for it. */
export function newLease(
  ctx: OperationContext,
  bound: JsonObject,
  managed: (obj: JsonObject) => JsonObject[] | undefined,
): Result<JsonObject, StatusError> {
  const meta = { ...metadataOf(bound) };
  if ((stringAt(meta, 'resourceVersion') ?? '') !== '') {
    return err(internalError('resourceVersion should not be set on objects to be created'));
  }
  const namespace = stringAt(meta, 'namespace') ?? '';
  const name = resolveName(ctx, namespace, meta);
  if (name !== '') meta['name'] = name;
  for (const key of ['deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink', 'managedFields']) delete meta[key];
  meta['uid'] = randomUUID();
  meta['creationTimestamp'] = formatTime(ctx.now());
  const draft: JsonObject = { ...bound, metadata: meta };
  const managedFields = managed(draft);
  if (managedFields !== undefined) meta['managedFields'] = managedFields;
  return ok(canonicalLease(draft));
}

/**
 * NamespaceLifecycle admission (plugin/pkg/admission/namespace/lifecycle): a create into a namespace
 * that does not exist fails with the NotFound of the namespace lookup, one into a terminating namespace
 * with 403 and the NamespaceTerminating cause, naming the object as admission.NewForbidden does (its
 * name, else its generateName, else "Unknown": names are generated later). It runs after decoding and
 * before validation, so a missing namespace wins over an invalid body.
 */
export function admitCreate(ctx: OperationContext, namespace: string, name: string): Result<void, StatusError> {
  if (!ctx.namespaces.has(namespace)) return err(namespaceNotFound(namespace));
  if (ctx.namespaces.isTerminating(namespace))
    return err(namespaceTerminating(namespace, name === '' ? 'Unknown' : name, ctx.resource));
  return ok(undefined);
}

export function createLease(
  ctx: OperationContext,
  namespace: string,
  body: JsonObject,
  options: WriteOptions,
): Result<PersistOutcome, StatusError> {
  const bound = bindToRequest(body, namespace, undefined);
  if (!bound.ok) return bound;
  const meta = metadataOf(bound.value);
  const admitted = admitCreate(ctx, namespace, stringAt(meta, 'name') || (stringAt(meta, 'generateName') ?? ''));
  if (!admitted.ok) return admitted;
  const now = formatTime(ctx.now());
  // The field manager starts from the managedFields the client sent, if they decode (decodeLiveOrNew).
  const sent = metadataOf(bound.value)['managedFields'];
  const fm = fieldManagerFor(ctx.schema, ctx.resource, now, ctx.emptiedContainers);
  const built = newLease(ctx, bound.value, (draft) => {
    const withSent = sent === undefined ? draft : { ...draft, metadata: { ...metadataOf(draft), managedFields: sent } };
    return managedFieldsAfterUpdate(fm, undefined, withSent, options.fieldManager);
  });
  if (!built.ok) return built;
  return persistCreate(ctx, built.value, options.dryRun);
}
