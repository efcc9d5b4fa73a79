// One step of the election bounded by a deadline on the election's clock and by the caller's cancel signal, as
// client-go bounds each renewal with context.WithTimeout(ctx, RenewDeadline) (leaderelection.go renew).
import { describe, expect, it } from 'vitest';
import {
  bounded,
  DeadlineExceededError,
} from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/bounded.js';
import { settle, VirtualClock } from './harness.js';

describe('bounded', () => {
  it('aborts at the deadline with a DeadlineExceededError, not before', async () => {
    const clock = new VirtualClock(1_000);
    const step = bounded(clock.view(), undefined, 11_000);
    clock.advance(9_999);
    await settle();
    expect(step.signal.aborted).toBe(false);
    clock.advance(1);
    await settle();
    expect(step.signal.aborted).toBe(true);
    expect(step.signal.reason).toEqual(new DeadlineExceededError('leader election deadline passed'));
    expect((step.signal.reason as Error).name).toBe('DeadlineExceededError');
  });

  it("follows the caller's cancel signal, with its reason", () => {
    const clock = new VirtualClock(0);
    const cancel = new AbortController();
    const step = bounded(clock.view(), cancel.signal, 10_000);
    const reason = new Error('shutting down');
    cancel.abort(reason);
    expect(step.signal.aborted).toBe(true);
    expect(step.signal.reason).toBe(reason);
  });

  it('is aborted from the start when the caller already cancelled', () => {
    const cancel = new AbortController();
    cancel.abort('gone');
    expect(bounded(new VirtualClock(0).view(), cancel.signal, 10_000).signal.reason).toBe('gone');
  });

  it('a deadline already passed aborts as soon as the clock is consulted', async () => {
    const clock = new VirtualClock(5_000);
    const step = bounded(clock.view(), undefined, 4_000);
    clock.fire();
    await settle();
    expect(step.signal.reason).toBeInstanceOf(DeadlineExceededError);
  });

  it('dispose stops the timer and lets go of the caller signal: neither aborts it afterwards', async () => {
    const clock = new VirtualClock(0);
    const cancel = new AbortController();
    const step = bounded(clock.view(), cancel.signal, 1_000);
    step.dispose();
    clock.advance(5_000);
    await settle();
    cancel.abort();
    expect(step.signal.aborted).toBe(false);
  });
});
