/**
 * What one line of a watch connection means, decided apart from the reading: a state type (what the reader
 * of a connection knows between two lines) and one pure function from that state and a checked event to a
 * decision, which the reader in ./connection-reader.ts carries out. No I/O, no timers, nothing mutated.
 *
 * client-go's RetryWatcher (k8s.io/client-go/tools/watch/retrywatcher.go, doReceive) moves its resume point
 * to the resourceVersion of every event it receives; here an event moves it only where the stream is known
 * to be in resourceVersion order, and what a resume replays is dropped rather than handed out again.
 */

import type { RawEvent } from './event-shape.js';
import { isInitialEventsEnd } from './event-shape.js';
import { isDecimal, isNewerDecimal, isNewerResourceVersion } from './resource-version.js';
import type { KubeObjectLike } from './resource-version.js';

/** What the reader of one connection knows between two lines; it updates `rv` and `collecting` as decided. */
export interface LineState {
  /** The resume point reached: where a reconnect would start. */
  rv: string | undefined;
  /**
   * The stream is in resourceVersion order: it started at a concrete resourceVersion. Starting at "0" (or
   * none) the server first sends synthetic ADDED events in no particular order, and only bookmarks move
   * the resume point.
   */
  readonly ordered: boolean;
  /** A sendInitialEvents connection still collecting its initial events, until the initial-events-end bookmark. */
  collecting: boolean;
}

/** What becomes of one event. One of a few shared constants: deciding allocates nothing on a busy watch. */
export interface LineDecision {
  /**
   * `handOut`: into this chunk's batch. `handOutIfUnseen`: into the batch unless the deduplicator has
   * yielded the object at this resourceVersion or a newer one. `drop`: nothing. `collect`: into the initial
   * events (a DELETED takes its object out). `endInitialEvents`: the initial state is complete. `fail`: an
   * in-stream ERROR ends the connection.
   */
  readonly action: 'handOut' | 'handOutIfUnseen' | 'drop' | 'collect' | 'endInitialEvents' | 'fail';
  /** The resume point moves to the event's resourceVersion (before the deduplicator is asked). */
  readonly advance: boolean;
  /** The event is new, progress for the backoff (./backoff.ts, ConnectionRecord.delivered) if it is kept. */
  readonly progress: boolean;
}

const FAIL: LineDecision = { action: 'fail', advance: false, progress: false };
const DROP: LineDecision = { action: 'drop', advance: false, progress: false };
const COLLECT: LineDecision = { action: 'collect', advance: false, progress: true };
const END_INITIAL_EVENTS: LineDecision = { action: 'endInitialEvents', advance: false, progress: true };
const HAND_OUT: LineDecision = { action: 'handOut', advance: false, progress: true };
const HAND_OUT_ADVANCING: LineDecision = { action: 'handOut', advance: true, progress: true };
/** A bookmark that does not move the resume point: handed out, but nothing new. */
const HAND_OUT_STALE_BOOKMARK: LineDecision = { action: 'handOut', advance: false, progress: false };
const HAND_OUT_IF_UNSEEN: LineDecision = { action: 'handOutIfUnseen', advance: false, progress: true };
const HAND_OUT_IF_UNSEEN_ADVANCING: LineDecision = { action: 'handOutIfUnseen', advance: true, progress: true };

/** The reader's state as a connection starts: at `rv`, or collecting initial events when `streaming`. */
export function initialLineState(rv: string | undefined, streaming: boolean): LineState {
  return { rv, ordered: !streaming && rv !== undefined && rv !== '' && rv !== '0', collecting: streaming };
}

/** A watch from `rv` replays in resourceVersion order and its decimal resourceVersions are checked by watermark (see decideLine). */
export function isOrderedFrom(rv: string): boolean {
  return rv !== '' && rv !== '0' && isDecimal(rv);
}

/** What to do with `event`, the next line of a connection whose reader is in `state`. */
export function decideLine(state: Readonly<LineState>, event: RawEvent): LineDecision {
  const type = event.type;
  if (type === 'ERROR') return FAIL;
  if (state.collecting) {
    // Among the initial events, bookmarks other than the one that ends them carry nothing.
    if (type === 'BOOKMARK') return isInitialEventsEnd(event.object) ? END_INITIAL_EVENTS : DROP;
    return COLLECT;
  }
  const objectRv = (event.object as KubeObjectLike).metadata?.resourceVersion;
  const rv = state.rv;
  if (type === 'BOOKMARK') {
    const newer = objectRv !== undefined && (rv === undefined || isNewerResourceVersion(objectRv, rv));
    return newer ? HAND_OUT_ADVANCING : HAND_OUT_STALE_BOOKMARK;
  }
  if (objectRv === undefined) return HAND_OUT;
  if (state.ordered && rv !== undefined && isDecimal(objectRv) && isDecimal(rv)) {
    // Fast path: from a concrete resourceVersion, a watch stream delivers events in resourceVersion
    // order, so anything at or below the highest one seen is a replay from a resume boundary.
    return isNewerDecimal(objectRv, rv) ? HAND_OUT_ADVANCING : DROP;
  }
  // An unordered stream (synthetic ADDED events, starting at resourceVersion "0") only moves the resume point by BOOKMARK:
  // resuming from the highest version seen would skip objects whose older events had not yet arrived.
  const advance = state.ordered && (rv === undefined || isNewerResourceVersion(objectRv, rv));
  return advance ? HAND_OUT_IF_UNSEEN_ADVANCING : HAND_OUT_IF_UNSEEN;
}
