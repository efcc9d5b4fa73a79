// A stand-in for kube-controller-manager's garbage collector over the objects of one store, as a state (the
// graph and a work queue of store keys) and a step that works off one queued key. Store events feed it
// (`observe`, graph_builder.go processGraphChanges/processTransitions): an owner's removal queues its
// dependents, and the owners among its own that wait for their dependents; an object that starts waiting
// for its dependents to be orphaned or deleted is queued, and for a foreground deletion its dependents too.
// `step` is attemptToDeleteItem, processDeletingDependentsItem and orphanDependents
// (pkg/controller/garbagecollector/garbagecollector.go). Each key costs O(1) writes (an orphaning owner a
// bounded batch, then it is queued again), so a deletion costs O(its dependents) in all. The driver
// (gc-driver.ts) runs steps off the request path; a request only pays for `observe`.
import type { JsonObject, JsonValue } from '../json.js';
import { isJsonObject, stringAt } from '../json.js';
import { canonicalLease } from '../lease-shape.js';
import type { StoreEvent } from '../store/lease-store.js';
import { splitKey } from '../store/lease-store.js';
import type { OperationContext } from './context.js';
import type { PropagationPolicy } from './delete.js';
import { deleteLease, FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from './delete.js';
import { GcGraph, ownerLinks, uidOf } from './gc-graph.js';
import { WorkQueue } from './gc-queue.js';
import { finalizersOf, metadataOf } from './identity.js';

/** How many dependents one step of an orphaning owner releases before the owner goes back in the queue. */
export const ORPHAN_BATCH = 64;

export interface GcState {
  graph: GcGraph;
  /**
   * The work queue: "uid key" items, each at most once, oldest first. The uid tells a queued object from one
   * created under its name since, which is not the item's to act on (attemptToDeleteItem's UID check).
   */
  queue: WorkQueue;
}

export function newGcState(): GcState {
  return { graph: new GcGraph(), queue: new WorkQueue() };
}

function deleting(obj: JsonObject): boolean {
  return stringAt(metadataOf(obj), 'deletionTimestamp') !== undefined;
}

function waitsFor(obj: JsonObject | undefined, finalizer: string): boolean {
  return obj !== undefined && deleting(obj) && finalizersOf(obj).includes(finalizer);
}

/** node.isDeletingDependents: under deletion with the foregroundDeletion finalizer. */
function deletingDependents(obj: JsonObject | undefined): boolean {
  return waitsFor(obj, FOREGROUND_FINALIZER);
}

function withMeta(obj: JsonObject, changes: Record<string, JsonValue | undefined>): JsonObject {
  const meta: JsonObject = { ...metadataOf(obj) };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete meta[key];
    else meta[key] = value;
  }
  return canonicalLease({ ...obj, metadata: meta });
}

/** Queues the object now at key, if any. */
function enqueue(ctx: OperationContext, state: GcState, key: string): void {
  const obj = ctx.store.get(key);
  if (obj !== undefined) state.queue.add(`${uidOf(obj)} ${key}`);
}

/** Queues the owners of `obj` (by the links given) that wait for their dependents' deletion. */
function queueWaitingOwners(ctx: OperationContext, state: GcState, namespace: string, uids: Iterable<string>): void {
  for (const uid of uids) {
    const key = state.graph.keyOf(namespace, uid);
    if (key !== undefined && deletingDependents(ctx.store.get(key))) enqueue(ctx, state, key);
  }
}

/** The owners whose link from prev to next was dropped or stopped blocking (addUnblockedOwnersToDeleteQueue). */
function unblocked(prev: JsonObject | undefined, next: JsonObject): string[] {
  const after = ownerLinks(next);
  return [...ownerLinks(prev)].filter(([uid, blocks]) => blocks && after.get(uid) !== true).map(([uid]) => uid);
}

/** Takes in an object stored before the collector started; one left waiting on a GC finalizer is queued. */
export function adopt(state: GcState, key: string, obj: JsonObject): void {
  state.graph.apply(key, undefined, obj);
  if (waitsFor(obj, ORPHAN_FINALIZER) || deletingDependents(obj)) state.queue.add(`${uidOf(obj)} ${key}`);
}

/** Takes in one store event: the graph follows it and what it affects is queued. */
export function observe(ctx: OperationContext, state: GcState, event: StoreEvent): void {
  const next = event.type === 'DELETED' ? undefined : event.object;
  state.graph.apply(event.key, event.prev, next);
  const { namespace } = splitKey(event.key);
  if (next === undefined) {
    const gone = event.prev ?? event.object;
    for (const dependent of state.graph.dependentsOf(namespace, uidOf(gone)).keys()) enqueue(ctx, state, dependent);
    // graph_builder.go: "this is to let attempToDeleteItem check if all the owner's dependents are deleted".
    queueWaitingOwners(ctx, state, namespace, ownerLinks(gone).keys());
    return;
  }
  if (waitsFor(next, ORPHAN_FINALIZER) && !waitsFor(event.prev, ORPHAN_FINALIZER)) enqueue(ctx, state, event.key);
  if (deletingDependents(next) && !deletingDependents(event.prev)) {
    for (const dependent of state.graph.dependentsOf(namespace, uidOf(next)).keys()) enqueue(ctx, state, dependent);
    enqueue(ctx, state, event.key);
  }
  queueWaitingOwners(ctx, state, namespace, unblocked(event.prev, next));
  // A dependent that names an owner already waiting for its dependents is one of them.
  const before = ownerLinks(event.prev);
  for (const uid of ownerLinks(next).keys()) {
    if (before.has(uid)) continue;
    const owner = state.graph.keyOf(namespace, uid);
    if (owner !== undefined && deletingDependents(ctx.store.get(owner))) enqueue(ctx, state, event.key);
  }
}

/** Removes one finalizer; the last one leaving an object under deletion deletes it (ShouldDeleteDuringUpdate). */
function dropFinalizer(ctx: OperationContext, key: string, obj: JsonObject, finalizer: string): void {
  const rest = finalizersOf(obj).filter((f) => f !== finalizer);
  ctx.store.commit(key, rest.length === 0 ? undefined : withMeta(obj, { finalizers: rest }));
}

/** The ownerReferences of the object at key without those to `uids` (GenerateDeleteOwnerRefStrategicMergeBytes). */
function dropOwnerRefs(ctx: OperationContext, key: string, uids: ReadonlySet<string>): void {
  const obj = ctx.store.get(key);
  const refs = obj === undefined ? undefined : metadataOf(obj)['ownerReferences'];
  if (obj === undefined || !Array.isArray(refs)) return;
  const kept = refs.filter((r) => !isJsonObject(r) || !uids.has(stringAt(r, 'uid') ?? ''));
  ctx.store.commit(key, withMeta(obj, { ownerReferences: kept.length > 0 ? kept : undefined }));
}

/** orphanDependents, a batch at a time; the orphan finalizer goes once no dependent is left. */
function orphanDependents(ctx: OperationContext, state: GcState, key: string, owner: JsonObject): void {
  const { namespace } = splitKey(key);
  const uid = uidOf(owner);
  const batch = [...take(state.graph.dependentsOf(namespace, uid).keys(), ORPHAN_BATCH)];
  for (const dependent of batch) dropOwnerRefs(ctx, dependent, new Set([uid]));
  // Queued again either way: to finish the batch, or for a foregroundDeletion finalizer beside the orphan one.
  enqueue(ctx, state, key);
  if (state.graph.dependentsOf(namespace, uid).size > 0) return;
  dropFinalizer(ctx, key, owner, ORPHAN_FINALIZER);
}

function* take<T>(items: Iterator<T>, count: number): Generator<T> {
  for (let i = 0; i < count; i++) {
    const next = items.next();
    if (next.done === true) return;
    yield next.value;
  }
}

/** processDeletingDependentsItem: each blocking dependent's removal queues the owner again (observe). */
function processDeletingDependents(ctx: OperationContext, state: GcState, key: string, owner: JsonObject): void {
  if (state.graph.blockingCount(splitKey(key).namespace, uidOf(owner)) > 0) return;
  dropFinalizer(ctx, key, owner, FOREGROUND_FINALIZER);
}

interface OwnerClasses {
  solid: string[];
  dangling: string[];
  waiting: string[];
}

/** classifyReferences: an owner is absent (dangling), waiting for its dependents' deletion, or solid. */
function classifyOwners(ctx: OperationContext, state: GcState, namespace: string, obj: JsonObject): OwnerClasses {
  const classes: OwnerClasses = { solid: [], dangling: [], waiting: [] };
  for (const uid of ownerLinks(obj).keys()) {
    const key = state.graph.keyOf(namespace, uid);
    const owner = key === undefined ? undefined : ctx.store.get(key);
    if (owner === undefined) classes.dangling.push(uid);
    else if (deletingDependents(owner)) classes.waiting.push(uid);
    else classes.solid.push(uid);
  }
  return classes;
}

/** The policy a collected object is deleted with when no owner makes it foreground: its own GC finalizer's, else Background. */
function ownPolicy(obj: JsonObject): PropagationPolicy {
  const finalizers = finalizersOf(obj);
  if (finalizers.includes(ORPHAN_FINALIZER)) return 'Orphan';
  if (finalizers.includes(FOREGROUND_FINALIZER)) return 'Foreground';
  return 'Background';
}

/** attemptToDeleteItem for an object not under deletion. */
function attemptToDelete(ctx: OperationContext, state: GcState, key: string, obj: JsonObject): void {
  const { namespace, name } = splitKey(key);
  const { solid, dangling, waiting } = classifyOwners(ctx, state, namespace, obj);
  if (solid.length + dangling.length + waiting.length === 0) return;
  if (solid.length > 0) {
    // An owner still holds it: only the references to absent owners and to owners waiting for it go, or
    // those owners would keep their foregroundDeletion finalizer for good.
    if (dangling.length + waiting.length > 0) dropOwnerRefs(ctx, key, new Set([...dangling, ...waiting]));
    return;
  }
  const uid = uidOf(obj);
  const dependents = state.graph.dependentsOf(namespace, uid);
  let policy = ownPolicy(obj);
  if (waiting.length > 0 && dependents.size > 0) {
    policy = 'Foreground';
    // A dependent already deleting its own dependents may be waiting for this object: its references stop
    // blocking first, so that the cycle cannot deadlock (unblockOwnerReferencesStrategicMergePatch).
    if ([...dependents.keys()].some((d) => deletingDependents(ctx.store.get(d)))) unblockOwnerRefs(ctx, key, obj);
  }
  deleteLease(ctx, namespace, name, { dryRun: false, preconditions: { uid }, propagationPolicy: policy });
}

function unblockOwnerRefs(ctx: OperationContext, key: string, obj: JsonObject): void {
  const refs = metadataOf(obj)['ownerReferences'];
  if (!Array.isArray(refs)) return;
  const unblocked = refs.map((r) =>
    isJsonObject(r) && r['blockOwnerDeletion'] === true ? { ...r, blockOwnerDeletion: false } : r,
  );
  ctx.store.commit(key, withMeta(obj, { ownerReferences: unblocked }));
}

/** Works off the oldest queued item; false when the queue was empty. */
export function step(ctx: OperationContext, state: GcState): boolean {
  const item = state.queue.take();
  if (item === undefined) return false;
  const space = item.indexOf(' ');
  const key = item.slice(space + 1);
  const obj = ctx.store.get(key);
  // Gone, or another object under the same name since it was queued: nothing of this item's to do.
  if (obj === undefined || uidOf(obj) !== item.slice(0, space)) return true;
  if (waitsFor(obj, ORPHAN_FINALIZER)) orphanDependents(ctx, state, key, obj);
  else if (deletingDependents(obj)) processDeletingDependents(ctx, state, key, obj);
  else if (!deleting(obj)) attemptToDelete(ctx, state, key, obj);
  return true;
}
