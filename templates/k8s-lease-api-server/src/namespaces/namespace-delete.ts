// What DELETE does to a Namespace (pkg/registry/core/namespace/storage/storage.go REST.Delete): the first
// request marks it (deletionTimestamp, phase Terminating, the garbage collector's metadata finalizers as
// the options ask); the namespace controller then empties it and takes its "kubernetes" finalizer off.
import type { JsonObject } from '../json.js';
import { isJsonObject, stringAt } from '../json.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { StatusError } from '../status.js';
import { formatTime } from '../time.js';
import { namespaceConflict, namespaceImmortal } from './namespace-errors.js';

/**
 * The DeleteOptions a namespace DELETE reads (operations/delete.ts DeleteOptions has this shape; stated here
 * because the operations import the namespace registry).
 */
export interface NamespaceDeleteOptions {
  dryRun: boolean;
  preconditions: { uid?: string | undefined; resourceVersion?: string | undefined };
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground' | undefined;
  orphanDependents?: boolean | undefined;
}

/** metav1.FinalizerOrphanDependents and metav1.FinalizerDeleteDependents, the garbage collector's. */
export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';
export const GC_FINALIZERS: readonly string[] = [ORPHAN_FINALIZER, FOREGROUND_FINALIZER];

/** The namespaces the NamespaceLifecycle admission plugin never lets go (its immortalNamespaces). */
export const IMMORTAL_NAMESPACES: readonly string[] = ['default', 'kube-system', 'kube-public'];

/** The token of the namespace controller in spec.finalizers (v1.FinalizerKubernetes). */
export const KUBERNETES_FINALIZER = 'kubernetes';

function metaOf(ns: JsonObject): JsonObject {
  return isJsonObject(ns['metadata']) ? ns['metadata'] : {};
}

function stringsAt(value: JsonObject | undefined, key: string): string[] {
  const list = value?.[key];
  return Array.isArray(list) ? list.filter((f): f is string => typeof f === 'string') : [];
}

export function metadataFinalizers(ns: JsonObject): string[] {
  return stringsAt(metaOf(ns), 'finalizers');
}

export function specFinalizers(ns: JsonObject): string[] {
  return stringsAt(isJsonObject(ns['spec']) ? ns['spec'] : undefined, 'finalizers');
}

export function isTerminating(ns: JsonObject): boolean {
  return stringAt(metaOf(ns), 'deletionTimestamp') !== undefined;
}

/** REST.Delete's own precondition checks, worded as it words them (not as the generic store does). */
export function checkNamespacePreconditions(
  ns: JsonObject,
  options: NamespaceDeleteOptions,
): Result<void, StatusError> {
  const meta = metaOf(ns);
  const name = stringAt(meta, 'name') ?? '';
  const uid = stringAt(meta, 'uid') ?? '';
  const rv = stringAt(meta, 'resourceVersion') ?? '';
  const { uid: wantUid, resourceVersion: wantRv } = options.preconditions;
  if (wantUid !== undefined && wantUid !== uid)
    return err(
      namespaceConflict(name, `Precondition failed: UID in precondition: ${wantUid}, UID in object meta: ${uid}`),
    );
  if (wantRv !== undefined && wantRv !== rv)
    return err(
      namespaceConflict(
        name,
        `Precondition failed: ResourceVersion in precondition: ${wantRv}, ResourceVersion in object meta: ${rv}`,
      ),
    );
  return ok(undefined);
}

/** The lifecycle admission plugin, run as REST.Delete's deleteValidation (after the preconditions). */
export function admitNamespaceDelete(name: string): Result<void, StatusError> {
  return IMMORTAL_NAMESPACES.includes(name) ? err(namespaceImmortal(name)) : ok(undefined);
}

/** shouldHaveOrphanFinalizer / shouldHaveDeleteDependentsFinalizer: options first, else what the namespace has. */
function gcFinalizersWanted(
  current: string[],
  options: NamespaceDeleteOptions,
): { orphan: boolean; foreground: boolean } {
  if (options.orphanDependents !== undefined)
    return { orphan: options.orphanDependents, foreground: !options.orphanDependents };
  if (options.propagationPolicy !== undefined)
    return { orphan: options.propagationPolicy === 'Orphan', foreground: options.propagationPolicy === 'Foreground' };
  return { orphan: current.includes(ORPHAN_FINALIZER), foreground: current.includes(FOREGROUND_FINALIZER) };
}

/** The first DELETE's update of a namespace not yet terminating. */
export function markTerminating(ns: JsonObject, options: NamespaceDeleteOptions, now: number): JsonObject {
  const meta = metaOf(ns);
  const current = metadataFinalizers(ns);
  const wanted = gcFinalizersWanted(current, options);
  const finalizers = current.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (wanted.orphan) finalizers.push(ORPHAN_FINALIZER);
  if (wanted.foreground) finalizers.push(FOREGROUND_FINALIZER);
  const marked: JsonObject = { ...meta, deletionTimestamp: stringAt(meta, 'deletionTimestamp') ?? formatTime(now) };
  if (finalizers.length > 0) marked['finalizers'] = finalizers;
  else delete marked['finalizers'];
  const status = isJsonObject(ns['status']) ? ns['status'] : {};
  return { ...ns, metadata: marked, status: { ...status, phase: 'Terminating' } };
}

/**
 * ShouldDeleteNamespaceDuringUpdate: an update that leaves a terminating namespace with neither spec
 * nor metadata finalizers deletes it.
 */
export function isReleased(ns: JsonObject): boolean {
  return isTerminating(ns) && specFinalizers(ns).length === 0 && metadataFinalizers(ns).length === 0;
}
