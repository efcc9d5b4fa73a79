// The garbage collector's view of one store, as graph_builder.go keeps it (uidToNode, node.dependents):
// fed from the store's events, so an object's dependents and an owner's key are lookups, never a scan.
// Each event costs O(its object's ownerReferences).
import type { JsonObject } from '../json.js';
import { isJsonObject, stringAt } from '../json.js';
import { splitKey } from '../store/lease-store.js';
import { metadataOf } from './identity.js';

/**
 * The ownerReferences of an object: owner uid → whether the dependent blocks the owner's foreground deletion
 * (a uid listed twice blocks if either entry does).
 */
export function ownerLinks(obj: JsonObject | undefined): Map<string, boolean> {
  const links = new Map<string, boolean>();
  const refs = obj === undefined ? undefined : metadataOf(obj)['ownerReferences'];
  if (!Array.isArray(refs)) return links;
  for (const ref of refs) {
    if (!isJsonObject(ref)) continue;
    const uid = stringAt(ref, 'uid') ?? '';
    links.set(uid, links.get(uid) === true || ref['blockOwnerDeletion'] === true);
  }
  return links;
}

export function uidOf(obj: JsonObject): string {
  return stringAt(metadataOf(obj), 'uid') ?? '';
}

/** An owner only owns objects of its own namespace, so a node is a uid within one. */
export function nodeId(namespace: string, uid: string): string {
  return `${namespace}/${uid}`;
}

const NO_DEPENDENTS: ReadonlyMap<string, boolean> = new Map();

export class GcGraph {
  /** node → store key of the live object with that uid. */
  private readonly keys = new Map<string, string>();
  /** owner node → its dependents' keys → whether each blocks the owner's deletion. */
  private readonly dependents = new Map<string, Map<string, boolean>>();
  /** owner node → how many of its dependents block its deletion. */
  private readonly blocking = new Map<string, number>();

  /** The store key of the live object with this uid in this namespace. */
  keyOf(namespace: string, uid: string): string | undefined {
    return this.keys.get(nodeId(namespace, uid));
  }

  dependentsOf(namespace: string, uid: string): ReadonlyMap<string, boolean> {
    return this.dependents.get(nodeId(namespace, uid)) ?? NO_DEPENDENTS;
  }

  /** node.blockingDependents's length, kept as a count so an owner's check is O(1). */
  blockingCount(namespace: string, uid: string): number {
    return this.blocking.get(nodeId(namespace, uid)) ?? 0;
  }

  /** Takes in one change of the store: the object at key went from prev to next (undefined: absent). */
  apply(key: string, prev: JsonObject | undefined, next: JsonObject | undefined): void {
    const { namespace } = splitKey(key);
    if (prev !== undefined) this.keys.delete(nodeId(namespace, uidOf(prev)));
    if (next !== undefined) this.keys.set(nodeId(namespace, uidOf(next)), key);
    const before = ownerLinks(prev);
    const after = ownerLinks(next);
    for (const [uid, blocks] of before) {
      if (after.get(uid) !== blocks) this.unlink(nodeId(namespace, uid), key, blocks);
    }
    for (const [uid, blocks] of after) {
      if (before.get(uid) !== blocks) this.link(nodeId(namespace, uid), key, blocks);
    }
  }

  private link(owner: string, dependent: string, blocks: boolean): void {
    let deps = this.dependents.get(owner);
    if (deps === undefined) {
      deps = new Map();
      this.dependents.set(owner, deps);
    }
    deps.set(dependent, blocks);
    if (blocks) this.blocking.set(owner, (this.blocking.get(owner) ?? 0) + 1);
  }

  private unlink(owner: string, dependent: string, blocked: boolean): void {
    const deps = this.dependents.get(owner);
    if (deps === undefined || !deps.delete(dependent)) return;
    if (deps.size === 0) this.dependents.delete(owner);
    if (!blocked) return;
    const count = (this.blocking.get(owner) ?? 1) - 1;
    if (count > 0) this.blocking.set(owner, count);
    else this.blocking.delete(owner);
  }
}
