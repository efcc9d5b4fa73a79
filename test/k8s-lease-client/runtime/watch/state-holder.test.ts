import { describe, expect, it } from 'vitest';
import { BackoffPolicy, backoffSettings } from '../../../../templates/k8s-lease-client/src/runtime/watch/backoff.js';
import { FINISH, Machine } from '../../../../templates/k8s-lease-client/src/runtime/watch/state-holder.js';
import { initialState, step } from '../../../../templates/k8s-lease-client/src/runtime/watch/state.js';
import type { WatchInput } from '../../../../templates/k8s-lease-client/src/runtime/watch/state.js';

type Obj = { metadata: { name: string; resourceVersion: string } };

const policy = (): BackoffPolicy =>
  new BackoffPolicy(backoffSettings({ initialDelayMs: 100, maxDelayMs: 1_000, jitter: 0 }), () => 0);

describe('Machine (state-holder.ts): state.ts’s step, held by the drivers', () => {
  it('moves as step does, input after input, and answers with step’s effects', () => {
    const inputs: Array<WatchInput<Obj>> = [
      { kind: 'listed', objects: [], resourceVersion: '7' },
      { kind: 'connected' },
      {
        kind: 'closed',
        connection: { failed: true, lastedMs: 10, delivered: 0 },
        error: new TypeError('cut'),
        resourceVersion: '8',
      },
      { kind: 'failed', error: new TypeError('refused') },
    ];
    const machine = new Machine<Obj>(initialState(undefined, false), policy());
    const reference = policy();
    let state = initialState(undefined, false);
    for (const input of inputs) {
      const expected = step(state, input, reference);
      expect(machine.feed(input)).toEqual(expected.effect);
      expect(machine.state).toEqual(expected.state);
      state = expected.state;
    }
    expect(machine.backoff?.failures).toBe(2);
  });

  it('without a backoff (reconnect: false) every failure is final', () => {
    const machine = new Machine<Obj>(initialState('5', false), undefined);
    const error = new TypeError('refused');
    expect(machine.feed({ kind: 'failed', error })).toEqual({ kind: 'fail', error });
  });

  it('FINISH is the clean end', () => {
    expect(FINISH).toEqual({ kind: 'finish' });
  });
});
