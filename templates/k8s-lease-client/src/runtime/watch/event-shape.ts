/**
 * What a watch event looks like: the types a watch yields, and the checks every decoded line passes before
 * it is taken for an event, as client-go's watch decoder (k8s.io/client-go/rest/watch/decoder.go) refuses an
 * event type it does not know.
 */

import { WatchDecodeError } from './ndjson.js';

/** The event types a Kubernetes watch stream sends (an in-stream `ERROR` is thrown as a WatchError instead). */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';

/** One change the server reported on a watch. */
export interface WatchEvent<T> {
  /** What happened to the object; `BOOKMARK` only moves the resume point (its object carries just a resourceVersion). */
  readonly type: WatchEventType;
  /** The object after the change; for `DELETED`, its last state. */
  readonly object: T;
}

/** Emitted after a 410 Gone when the watch re-listed: `objects` is the complete current state; consumers replace theirs. */
export interface ResyncEvent<T> {
  /** Marks a resync, as opposed to a WatchEvent. */
  readonly type: 'RESYNC';
  /** Every object the re-list returned: the whole current state. */
  readonly objects: readonly T[];
  /** The resourceVersion of the re-list, from which the watch resumes. */
  readonly resourceVersion: string;
  /** The Status reason of the 410 that forced the re-list. */
  readonly reason: 'Expired' | 'Gone';
}

/** What a `watch` iteration yields: a change, or a RESYNC after history was lost. */
export type WatchNotification<T> = WatchEvent<T> | ResyncEvent<T>;

/** Annotation of the bookmark that ends the initial events of a `sendInitialEvents` watch. */
export const INITIAL_EVENTS_END_ANNOTATION: string = 'k8s.io/initial-events-end';

/** A decoded watch line, checked for the shape every watch event has. */
export interface RawEvent {
  type: WatchEventType | 'ERROR';
  object: unknown;
}

const EVENT_TYPES: ReadonlySet<string> = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

/** The decoded line as a watch event; a WatchDecodeError (quoting it) when it does not have the shape of one. */
export function toEvent(value: unknown): RawEvent {
  if (typeof value === 'object' && value !== null) {
    const type: unknown = (value as { type?: unknown }).type;
    const object: unknown = (value as { object?: unknown }).object;
    if (typeof type === 'string' && EVENT_TYPES.has(type) && typeof object === 'object' && object !== null) {
      return value as RawEvent;
    }
  }
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return failShape(text);
}

function failShape(text: string): never {
  throw new WatchDecodeError({
    text,
    line: 0,
    truncated: false,
    problem: 'not a watch event ({"type":…,"object":{…}})',
  });
}

/** The bookmark that ends the initial events of a sendInitialEvents watch (client-go: reflector.go, handleAnyWatch). */
export function isInitialEventsEnd(object: unknown): boolean {
  const metadata: unknown = (object as { metadata?: unknown }).metadata;
  if (typeof metadata !== 'object' || metadata === null) return false;
  const annotations: unknown = (metadata as { annotations?: unknown }).annotations;
  if (typeof annotations !== 'object' || annotations === null) return false;
  return (annotations as Record<string, unknown>)[INITIAL_EVENTS_END_ANNOTATION] === 'true';
}
