// The namespace controller (pkg/controller/namespace/deletion/namespaced_resources_deleter.go) as a
// state machine: the state is the queue of terminating namespaces; one pure step looks at the head
// namespace and one bounded slice of its content and says what to do. The driver
// (namespace-controller-driver.ts) observes, applies the effects and schedules the next step.
import type { JsonObject, JsonValue } from '../json.js';
import { isJsonObject, stringAt } from '../json.js';
import type { ContentTotals } from './namespace-conditions.js';
import { nextConditions } from './namespace-conditions.js';
import {
  GC_FINALIZERS,
  isTerminating,
  KUBERNETES_FINALIZER,
  metadataFinalizers,
  specFinalizers,
} from './namespace-delete.js';

export interface ControllerState {
  /** Names of terminating namespaces still to work on, head first. */
  readonly queue: readonly string[];
}

/** One object of the namespace: which resource table holds it and its store key. */
export interface ContentRef {
  resource: string;
  key: string;
}

/** One bounded look at the head namespace and its content. */
export interface Observation {
  /** The head namespace as stored now (undefined once gone). */
  namespace: JsonObject | undefined;
  /** Objects not yet marked for deletion, at most one slice of them. */
  deletable: readonly ContentRef[];
  /** Whether the look covered all the content (else totals are partial and more objects remain). */
  complete: boolean;
  /** What remains: counts per resource and per finalizer, with the failures of the last deletes. */
  totals: ContentTotals;
  now: number;
}

export type Effect =
  | { kind: 'delete'; items: readonly ContentRef[] }
  | { kind: 'setConditions'; name: string; conditions: JsonValue[] }
  | { kind: 'finalize'; name: string; finalizers: string[] }
  | { kind: 'releaseGcFinalizers'; name: string };

/** What the driver does next: run the next step soon (more work), wait for a change, or nothing queued. */
export type Pace = 'continue' | 'wait' | 'idle';

export interface StepResult {
  state: ControllerState;
  effects: Effect[];
  pace: Pace;
}

export function enqueue(state: ControllerState, name: string): ControllerState {
  return state.queue.includes(name) ? state : { queue: [...state.queue, name] };
}

function rotate(state: ControllerState): ControllerState {
  const [head, ...rest] = state.queue;
  return head === undefined ? state : { queue: [...rest, head] };
}

function drop(state: ControllerState): ControllerState {
  return { queue: state.queue.slice(1) };
}

function paced(state: ControllerState, effects: Effect[], busy: boolean): StepResult {
  return { state, effects, pace: state.queue.length === 0 ? 'idle' : busy ? 'continue' : 'wait' };
}

function conditionsOf(ns: JsonObject): JsonValue[] {
  const status = isJsonObject(ns['status']) ? ns['status'] : {};
  return Array.isArray(status['conditions']) ? status['conditions'] : [];
}

/**
 * One step for the head of the queue (Delete in namespaced_resources_deleter.go, then finalizeNamespace):
 * a namespace gone or no longer terminating leaves the queue; content not yet marked is deleted a slice
 * at a time; when only objects kept by finalizers remain, the conditions say so and the namespace waits;
 * once empty, the conditions turn to their "ok" form and the "kubernetes" finalizer comes off. The
 * garbage collector's metadata finalizers (a namespace owns nothing here) are released last.
 */
export function step(state: ControllerState, observed: Observation): StepResult {
  const ns = observed.namespace;
  const name = state.queue[0];
  if (name === undefined) return paced(state, [], false);
  if (ns === undefined || !isTerminating(ns)) return paced(drop(state), [], true);
  const pending = specFinalizers(ns).includes(KUBERNETES_FINALIZER);
  if (pending && observed.deletable.length > 0)
    return paced(rotate(state), [{ kind: 'delete', items: observed.deletable }], true);
  if (pending && !observed.complete) return paced(rotate(state), [], true);
  const effects: Effect[] = [];
  const conditions = pending ? nextConditions(conditionsOf(ns), observed.totals, observed.now) : undefined;
  if (conditions !== undefined) effects.push({ kind: 'setConditions', name, conditions });
  const remaining = Object.values(observed.totals.remaining).some((n) => n > 0);
  if (pending && remaining) return paced(rotate(state), effects, false);
  if (pending)
    effects.push({ kind: 'finalize', name, finalizers: specFinalizers(ns).filter((f) => f !== KUBERNETES_FINALIZER) });
  const gc = metadataFinalizers(ns).some((f) => GC_FINALIZERS.includes(f));
  if (gc) effects.push({ kind: 'releaseGcFinalizers', name });
  // Other spec or metadata finalizers are someone else's to remove; the namespace stays until they are.
  return paced(drop(state), effects, true);
}

/** The name of a stored namespace. */
export function namespaceName(ns: JsonObject): string {
  return stringAt(isJsonObject(ns['metadata']) ? ns['metadata'] : {}, 'name') ?? '';
}
