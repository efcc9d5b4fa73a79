// The namespace controller's driver: it queues namespaces as they turn Terminating, observes the head
// namespace (one bounded slice of its content), runs the pure step (namespace-controller.ts) and
// applies its effects through the registry and the resources' own delete path (so watchers see every
// DELETED), one step per turn of the event loop; when every queued namespace only waits on finalizers
// it sleeps and looks again.
import { isJsonObject } from '../json.js';
import type { OperationContext } from '../operations/context.js';
import { deleteLease } from '../operations/delete.js';
import { namespaceRange } from '../store/snapshot.js';
import { splitKey } from '../store/lease-store.js';
import type { ContentRef, ControllerState, Effect, Observation } from './namespace-controller.js';
import { enqueue, step } from './namespace-controller.js';
import { GC_FINALIZERS, isTerminating, metadataFinalizers } from './namespace-delete.js';
import type { NamespaceRegistry } from './namespace-registry.js';

export interface NamespaceControllerOptions {
  /** Objects deleted per step (the bounded slice). */
  sliceSize?: number | undefined;
  /** Entries looked at per step at most, marked ones included. */
  scanLimit?: number | undefined;
  /** How long to sleep when every queued namespace waits on finalizers. */
  waitMs?: number | undefined;
}

export interface NamespaceController {
  stop(): void;
  /** Whether no namespace is queued (tests wait on it). */
  readonly idle: boolean;
}

/** One bounded look at a namespace's content across the served resources (one context per store). */
export function observeNamespace(
  name: string,
  registry: Pick<NamespaceRegistry, 'get'>,
  resources: ReadonlyMap<string, Pick<OperationContext, 'store' | 'resource'>>,
  failures: readonly string[],
  limits: { slice: number; scan: number },
  now: number,
): Observation {
  const deletable: ContentRef[] = [];
  const remaining: Record<string, number> = {};
  const finalizers = new Map<string, number>();
  let budget = limits.scan;
  let complete = true;
  const { from, to } = namespaceRange(name);
  for (const [resource, ctx] of resources) {
    const snapshot = ctx.store.current();
    remaining[ctx.resource.qualifiedResource] = snapshot.count(from, to);
    const stopped = snapshot.scan(from, to, (key, obj) => {
      if (budget <= 0 || deletable.length >= limits.slice) return false;
      budget--;
      const meta = isJsonObject(obj['metadata']) ? obj['metadata'] : {};
      if (meta['deletionTimestamp'] === undefined) deletable.push({ resource, key });
      for (const f of metadataFinalizers(obj)) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
      return true;
    });
    if (stopped) complete = false;
  }
  return {
    namespace: registry.get(name),
    deletable,
    complete,
    totals: { remaining, finalizers: Object.fromEntries(finalizers), failures },
    now,
  };
}

/**
 * Starts the controller over the namespaces of `registry` and the content of `resources` (keyed by any
 * name; give one context per store: LeaseCandidate's versions share one).
 */
export function startNamespaceController(
  registry: NamespaceRegistry,
  resources: ReadonlyMap<string, OperationContext>,
  now: () => number,
  options: NamespaceControllerOptions = {},
): NamespaceController {
  const limits = { slice: options.sliceSize ?? 64, scan: options.scanLimit ?? 4096 };
  const waitMs = options.waitMs ?? 1000;
  let state: ControllerState = { queue: [] };
  /** Per namespace, the messages of the last step's failed deletes (NamespaceDeletionContentFailure). */
  const failures = new Map<string, string[]>();
  let waits = 0;
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  let stopped = false;

  const apply = (effect: Effect): void => {
    switch (effect.kind) {
      case 'delete': {
        const failed: string[] = [];
        for (const ref of effect.items) {
          const ctx = resources.get(ref.resource);
          if (ctx === undefined) continue;
          const { namespace, name } = splitKey(ref.key);
          const options = { dryRun: false, preconditions: {}, propagationPolicy: 'Background' as const };
          const deleted = deleteLease(ctx, namespace, name, options);
          if (!deleted.ok && deleted.error.code !== 404) failed.push(deleted.error.message);
          failures.set(namespace, failed);
        }
        return;
      }
      case 'setConditions':
        return registry.setConditions(effect.name, effect.conditions);
      case 'finalize':
        failures.delete(effect.name);
        return void registry.finalize(effect.name, effect.finalizers, false);
      case 'releaseGcFinalizers':
        return registry.releaseMetadataFinalizers(effect.name, GC_FINALIZERS);
    }
  };

  const schedule = (delayMs: number): void => {
    if (stopped || immediate !== undefined || timer !== undefined) return;
    if (delayMs === 0) immediate = setImmediate(run);
    else timer = setTimeout(run, delayMs);
  };

  const wake = (): void => {
    waits = 0;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    schedule(0);
  };

  function run(): void {
    immediate = undefined;
    timer = undefined;
    const head = state.queue[0];
    if (head === undefined || stopped) return;
    const observed = observeNamespace(head, registry, resources, failures.get(head) ?? [], limits, now());
    const result = step(state, observed);
    state = result.state;
    for (const effect of result.effects) apply(effect);
    if (result.pace === 'idle') return;
    waits = result.pace === 'wait' ? waits + 1 : 0;
    // Every queued namespace waited once in a row: nothing moves until a finalizer is removed.
    schedule(waits >= state.queue.length ? waitMs : 0);
  }

  const unsubscribe = registry.store.subscribe((event) => {
    if (event.type === 'DELETED' || !isTerminating(event.object)) return;
    const name = splitKey(event.key).name;
    if (state.queue.includes(name)) return;
    state = enqueue(state, name);
    wake();
  });
  // A finalizer removed from an object that kept a queued namespace lets it move on now, not after waitMs.
  const stores = new Set([...resources.values()].map((ctx) => ctx.store));
  const unsubscribeContent = [...stores].map((store) =>
    store.subscribe((event) => {
      if (event.type === 'DELETED' && state.queue.includes(splitKey(event.key).namespace)) wake();
    }),
  );

  return {
    stop(): void {
      stopped = true;
      unsubscribe();
      for (const off of unsubscribeContent) off();
      if (timer !== undefined) clearTimeout(timer);
      if (immediate !== undefined) clearImmediate(immediate);
    },
    get idle(): boolean {
      return state.queue.length === 0;
    },
  };
}
