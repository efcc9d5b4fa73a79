// One refresh shared by concurrent callers (client-go plugin/pkg/client/auth/oidc/oidc.go idToken holds p.mu across
// the refresh), each caller bounded by its own timeout and signal, the work aborted once no caller waits.
import { describe, expect, it } from 'vitest';
import { sharedFlight } from '../../templates/k8s-lease-client-node/src/shared-flight.js';

/** Work that stays pending until the test settles it, recording each start and its signal. */
function controllable(): {
  work: (signal: AbortSignal) => Promise<string>;
  runs: Array<{ signal: AbortSignal; resolve: (value: string) => void; reject: (error: Error) => void }>;
} {
  const runs: Array<{ signal: AbortSignal; resolve: (value: string) => void; reject: (error: Error) => void }> = [];
  const work = (signal: AbortSignal): Promise<string> =>
    new Promise((resolve, reject) => {
      runs.push({ signal, resolve, reject });
    });
  return { work, runs };
}

const timedOut = (ms: number): Error => new Error(`timed out after ${ms} ms`);

describe('sharedFlight', () => {
  it('concurrent callers share one run and all get its result; the next call starts a new run', async () => {
    const { work, runs } = controllable();
    const get = sharedFlight(work, timedOut);
    const both = Promise.all([get(), get({ timeoutMs: 10_000 })]);
    expect(runs).toHaveLength(1);
    runs[0]?.resolve('token-1');
    expect(await both).toEqual(['token-1', 'token-1']);
    const next = get();
    expect(runs).toHaveLength(2);
    runs[1]?.reject(new Error('refused'));
    await expect(next).rejects.toThrow('refused');
  });

  it('a caller whose timeout passes gets onTimeout; the run goes on for a caller still waiting', async () => {
    const { work, runs } = controllable();
    const get = sharedFlight(work, timedOut);
    const patient = get();
    await expect(get({ timeoutMs: 20 })).rejects.toThrow('timed out after 20 ms');
    expect(runs[0]?.signal.aborted).toBe(false);
    runs[0]?.resolve('token');
    expect(await patient).toBe('token');
  });

  it('once the last caller gives up, the run is aborted and the next call starts afresh', async () => {
    const { work, runs } = controllable();
    const get = sharedFlight(work, timedOut);
    await expect(get({ timeoutMs: 10 })).rejects.toThrow('timed out after 10 ms');
    expect(runs[0]?.signal.aborted).toBe(true);
    const again = get();
    expect(runs).toHaveLength(2);
    runs[1]?.resolve('fresh');
    expect(await again).toBe('fresh');
  });

  it("an aborted caller rejects with its signal's reason; an already aborted one starts nothing", async () => {
    const { work, runs } = controllable();
    const get = sharedFlight(work, timedOut);
    const controller = new AbortController();
    const pending = get({ signal: controller.signal });
    const reason = new Error('stopped');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(runs[0]?.signal.aborted).toBe(true);
    await expect(get({ signal: controller.signal })).rejects.toBe(reason);
    expect(runs).toHaveLength(1);
  });

  it('a timeoutMs that is not a finite number >= 0 sets no timer (the client refuses it)', async () => {
    const { work, runs } = controllable();
    const get = sharedFlight(work, timedOut);
    const pending = get({ timeoutMs: -1 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    runs[0]?.resolve('token');
    expect(await pending).toBe('token');
  });
});
