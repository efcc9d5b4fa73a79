/**
 * The watch's state machine as its drivers hold it: ./state.ts's state and pure `step`, with the backoff
 * the step counts on, behind the one way to move it. The drivers (./watch.ts, ./connection-reader.ts) feed
 * it what happened and carry out the effect it answers with.
 */

import type { BackoffPolicy } from './backoff.js';
import { step } from './state.js';
import type { WatchEffect, WatchInput, WatchState } from './state.js';

/** The watch's stopped, aborted end. */
export const FINISH: WatchEffect<never> = { kind: 'finish' };

/** The state machine of one iteration: its state, its backoff, and the one way to move it (./state.ts's `step`). */
export class Machine<T> {
  constructor(
    public state: WatchState,
    readonly backoff: BackoffPolicy | undefined,
  ) {}

  /** Steps the machine with `input`; returns the effect for the driver to carry out. */
  feed(input: WatchInput<T>): WatchEffect<T> | undefined {
    const { state, effect } = step(this.state, input, this.backoff);
    this.state = state;
    return effect;
  }
}
