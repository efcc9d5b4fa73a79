// Hostile input for the coordinated-leader-election controller: 10,000 LeaseCandidates for one Lease through
// the HTTP API (four concurrent clients), then renewals. kube-apiserver's controller works off informer events
// through a workqueue (pkg/controlplane/controller/leaderelection/leaderelection_controller.go), so no request
// waits for it: a concurrent GET /version must be answered within a generous bound throughout, and at the end
// the controller must still name the best candidate (election.go pickBestLeaderOldestEmulationVersion).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { candidateName, floodCandidates } from '../../../bench/candidate-flood/candidate-flood.js';
import { start } from '../helpers.js';

const T0 = Date.UTC(2026, 0, 1);
const micro = (ms: number): string => new Date(ms).toISOString().replace('Z', '000Z');
const CANDIDATES = 10_000;
const BEST = 7_777;
/**
 * Generous, for a machine shared with other work: no request waits for a pass over the candidates (before:
 * 40-160 ms per write, growing with their number, and 242 s to create them).
 */
const BOUND_MS = 1_000;
/**
 * The server reads its clock a few times per request (timestamps, managed fields) and the controller a few
 * times per queued Lease; a pass that visits every candidate read it once per candidate (10,000 per change).
 */
const CLOCK_READS_PER_REQUEST = 40;

describe('the election controller under 10,000 LeaseCandidates for one Lease', () => {
  let server: LeaseApiServer;
  // A fixed clock: every candidate stays fresh and the first elected holder's term never ends, so the
  // outcome is preferredHolder = the best candidate, whatever the machine's speed.
  let clockReads = 0;
  beforeAll(async () => {
    server = await start({
      release: '1.34',
      clock: () => {
        clockReads++;
        return T0;
      },
      coordinatedLeaderElection: { resyncMs: 0 },
    });
  });
  afterAll(() => server?.close());

  it('keeps answering GET /version within 1 s while they are created and renewed, and prefers the best one', async () => {
    clockReads = 0;
    const writes = 2_000;
    const result = await floodCandidates({
      url: server.url,
      candidates: CANDIDATES,
      clients: 4,
      leaseName: 'flooded',
      best: BEST,
      writes,
      renewTime: (i) => micro(T0 - 1_000 + (i % 1_000)),
    });
    expect(result.failures).toEqual([]);
    expect(result.probes).toBeGreaterThan(0);
    expect(result.worstProbeCreateMs).toBeLessThan(BOUND_MS);
    expect(result.worstProbeWriteMs).toBeLessThan(BOUND_MS);
    // The work, independent of the machine's speed: proportional to the requests, not to requests × candidates.
    expect(clockReads).toBeLessThan(CLOCK_READS_PER_REQUEST * (CANDIDATES + writes + result.probes));
    // The controller's queue drains on its own (no reconcile call): wait for its slices to run.
    for (let i = 0; i < 2_000; i++) {
      const spec = server.store.get('default', 'flooded')?.spec;
      if (spec?.preferredHolder === candidateName(BEST)) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const spec = server.store.get('default', 'flooded')?.spec;
    expect(spec).toMatchObject({ strategy: 'OldestEmulationVersion', preferredHolder: candidateName(BEST) });
    expect(spec?.holderIdentity).toMatch(/^c-\d{5}$/);
    // The same answer from a whole pass, as reconcileLeaderElection runs one.
    server.reconcileLeaderElection();
    expect(server.store.get('default', 'flooded')?.spec?.preferredHolder).toBe(candidateName(BEST));
  }, 600_000);
});
