// How the elector calls its user's callbacks (templates/k8s-lease-client/src/runtime/leaderelection/guarded-calls.ts):
// what a callback throws or rejects with goes to onError, the loop never sees it; a rejection with the reason of
// the callback's own aborted signal is work that stopped as asked; an onError that throws is ignored.
import { describe, expect, it } from 'vitest';
import { guardedCalls } from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/guarded-calls.js';

/** Lets a rejection's handlers run. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

describe('guardedCalls', () => {
  it('reports a throw and a rejection to onError', async () => {
    const reported: unknown[] = [];
    const calls = guardedCalls((error) => reported.push(error));
    const thrown = new Error('thrown');
    const rejected = new Error('rejected');
    calls.invoke(() => {
      throw thrown;
    });
    calls.invoke(() => Promise.reject(rejected));
    await settle();
    expect(reported).toEqual([thrown, rejected]);
  });

  it('does not report a rejection with its aborted signal’s reason, nor an AbortError once it aborted', async () => {
    const reported: unknown[] = [];
    const calls = guardedCalls((error) => reported.push(error));
    const stop = new AbortController();
    const reason = new Error('stop');
    stop.abort(reason);
    calls.invoke(() => Promise.reject(reason), stop.signal);
    calls.invoke(() => Promise.reject(new DOMException('aborted', 'AbortError')), stop.signal);
    await settle();
    expect(reported).toEqual([]);
  });

  it('reports that same rejection while its signal has not aborted', async () => {
    const reported: unknown[] = [];
    const calls = guardedCalls((error) => reported.push(error));
    const reason = new Error('stop');
    calls.invoke(() => Promise.reject(reason), new AbortController().signal);
    await settle();
    expect(reported).toEqual([reason]);
  });

  it('an onError that throws is ignored', () => {
    const calls = guardedCalls(() => {
      throw new Error('onError failed');
    });
    expect(() => calls.report(new Error('x'))).not.toThrow();
    expect(() =>
      calls.invoke(() => {
        throw new Error('callback failed');
      }),
    ).not.toThrow();
  });
});
