// A stand-in for kube-controller-manager's garbage collector, limited to the objects of one store and
// one namespace (an owner only owns objects of its namespace). It runs synchronously after each
// deletion, so the GC finalizers Store.Delete adds are processed at once:
// - `orphan`: ownerReferences to the owner are removed from its dependents, then the finalizer;
// - `foregroundDeletion`: the dependents are deleted (each in the background); once none with
//   blockOwnerDeletion is left, the finalizer is removed;
// - after an owner is gone (background): dependents all of whose owners are gone are deleted.
// Removing the last finalizer deletes the owner (Store.Update's ShouldDeleteDuringUpdate).
// Hand-written Kubernetes behaviour (pkg/controller/garbagecollector), reduced to what one store can see.
import type { JsonObject, JsonValue } from '../json.js';
import { isJsonObject, stringAt } from '../json.js';
import { canonicalLease } from '../lease-shape.js';
import { storeKey } from '../store/lease-store.js';
import { formatTime } from '../time.js';
import type { OperationContext } from './context.js';
import { finalizersOf, metadataOf } from './identity.js';

const ORPHAN = 'orphan';
const FOREGROUND = 'foregroundDeletion';

interface OwnerRef {
  uid: string;
  blocks: boolean;
}

function ownerRefs(obj: JsonObject): OwnerRef[] {
  const refs = metadataOf(obj)['ownerReferences'];
  if (!Array.isArray(refs)) return [];
  return refs
    .filter(isJsonObject)
    .map((r) => ({ uid: stringAt(r, 'uid') ?? '', blocks: r['blockOwnerDeletion'] === true }));
}

function withMeta(obj: JsonObject, changes: Record<string, JsonValue | undefined>): JsonObject {
  const meta: JsonObject = { ...metadataOf(obj) };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete meta[key];
    else meta[key] = value;
  }
  return canonicalLease({ ...obj, metadata: meta });
}

class Collector {
  /** uids deleted during this run: their dependents are collected in the background. */
  private readonly gone = new Set<string>();

  constructor(
    private readonly ctx: OperationContext,
    private readonly namespace: string,
    deleted: readonly string[],
  ) {
    for (const uid of deleted) this.gone.add(uid);
  }

  private objects(): JsonObject[] {
    return this.ctx.store.current().objectsIn(this.namespace);
  }

  private keyOf(obj: JsonObject): string {
    return storeKey(this.namespace, stringAt(metadataOf(obj), 'name') ?? '');
  }

  private dependents(uid: string): JsonObject[] {
    return this.objects().filter((o) => ownerRefs(o).some((r) => r.uid === uid));
  }

  /** Removes one finalizer; the last one leaving an object under deletion deletes it. */
  private dropFinalizer(obj: JsonObject, finalizer: string): void {
    const rest = finalizersOf(obj).filter((f) => f !== finalizer);
    if (rest.length === 0) {
      this.ctx.store.commit(this.keyOf(obj), undefined);
      this.gone.add(stringAt(metadataOf(obj), 'uid') ?? '');
      return;
    }
    this.ctx.store.commit(this.keyOf(obj), withMeta(obj, { finalizers: rest }));
  }

  /** Deletes a dependent as a background DELETE would: marked if it has finalizers of its own. */
  private deleteDependent(obj: JsonObject): void {
    if (stringAt(metadataOf(obj), 'deletionTimestamp') !== undefined) return;
    if (finalizersOf(obj).length > 0) {
      const marked = { deletionTimestamp: formatTime(this.ctx.now()), deletionGracePeriodSeconds: 0 };
      this.ctx.store.commit(this.keyOf(obj), withMeta(obj, marked));
      return;
    }
    this.ctx.store.commit(this.keyOf(obj), undefined);
    this.gone.add(stringAt(metadataOf(obj), 'uid') ?? '');
  }

  /** One pass over the namespace; true when it changed something. */
  private pass(): boolean {
    for (const obj of this.objects()) {
      const meta = metadataOf(obj);
      const uid = stringAt(meta, 'uid') ?? '';
      const deleting = stringAt(meta, 'deletionTimestamp') !== undefined;
      if (deleting && finalizersOf(obj).includes(ORPHAN)) {
        for (const dep of this.dependents(uid)) {
          const kept = (metadataOf(dep)['ownerReferences'] as JsonValue[]).filter(
            (r) => !isJsonObject(r) || stringAt(r, 'uid') !== uid,
          );
          this.ctx.store.commit(
            this.keyOf(dep),
            withMeta(dep, { ownerReferences: kept.length > 0 ? kept : undefined }),
          );
        }
        this.dropFinalizer(obj, ORPHAN);
        return true;
      }
      if (deleting && finalizersOf(obj).includes(FOREGROUND)) {
        const deps = this.dependents(uid);
        const pending = deps.filter((d) => stringAt(metadataOf(d), 'deletionTimestamp') === undefined);
        for (const dep of pending) this.deleteDependent(dep);
        const blocking = this.dependents(uid).filter((d) => ownerRefs(d).some((r) => r.uid === uid && r.blocks));
        if (blocking.length === 0) {
          this.dropFinalizer(obj, FOREGROUND);
          return true;
        }
        if (pending.length > 0) return true;
        continue;
      }
      const refs = ownerRefs(obj);
      if (!deleting && refs.length > 0 && refs.every((r) => this.gone.has(r.uid))) {
        this.deleteDependent(obj);
        return true;
      }
    }
    return false;
  }

  run(): void {
    // Each pass that changes something removes a finalizer, an owner reference or an object, so the
    // number of passes is bounded by what the namespace holds.
    let budget = 4 * (this.objects().length + 1);
    while (budget-- > 0 && this.pass());
  }
}

/** Processes GC finalizers and orphaned dependents in `namespace`; `deleted` are uids just deleted. */
export function collectGarbage(ctx: OperationContext, namespace: string, deleted: readonly string[]): void {
  new Collector(ctx, namespace, deleted).run();
}
