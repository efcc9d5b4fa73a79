// A flood of LeaseCandidates for one Lease through the HTTP API, a few concurrent clients, while a prober
// times GET /version: how long the server leaves a request waiting while the coordinated-leader-election
// controller absorbs the candidates. Shared by bench/candidate-flood/candidate-flood.bench.ts and
// test/k8s-lease-api-server/candidates/leasecandidate-flood.test.ts.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

export const FLOOD_PATH = '/apis/coordination.k8s.io/v1beta1/namespaces/default/leasecandidates';
/** The same flood of plain Leases (no controller involved): the baseline the candidates' figures compare with. */
const LEASE_PATH = '/apis/coordination.k8s.io/v1/namespaces/default/leases';

export interface FloodOptions {
  url: string;
  /** LeaseCandidates to create, all naming `leaseName`. */
  candidates: number;
  /** Concurrent clients (each sends its next request when its previous one is answered). */
  clients: number;
  leaseName: string;
  /** The index of the one candidate with an older emulation version: the one the controller must prefer. */
  best: number;
  /** Candidate renewals (PATCH renewTime) after the creations, spread over all candidates. */
  writes: number;
  /** The candidates' renewTime (the server's clock, fixed in the test and the benchmark, so all stay fresh). */
  renewTime: (i: number) => string;
  /** 'leases': create and renew plain Leases instead, as a baseline; default LeaseCandidates. */
  resource?: 'leasecandidates' | 'leases';
}

export interface FloodResult {
  createMs: number;
  /** The time each quarter of the creations took (equal quarters: the work per candidate does not grow). */
  createQuarterMs: number[];
  writeMs: number;
  probes: number;
  /** The slowest GET /version answer during the creations and during the renewals. */
  worstProbeCreateMs: number;
  worstProbeWriteMs: number;
  /** Non-2xx answers to the flood's own requests (should be none). */
  failures: string[];
}

export const candidateName = (i: number): string => `c-${String(i).padStart(5, '0')}`;

function candidateBody(options: FloodOptions, i: number): string {
  if (options.resource === 'leases')
    return JSON.stringify({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: candidateName(i) },
      spec: { holderIdentity: candidateName(i), leaseDurationSeconds: 5, renewTime: options.renewTime(i) },
    });
  const version = i === options.best ? '1.33.0' : '1.34.0';
  return JSON.stringify({
    apiVersion: 'coordination.k8s.io/v1beta1',
    kind: 'LeaseCandidate',
    metadata: { name: candidateName(i) },
    spec: {
      leaseName: options.leaseName,
      binaryVersion: '1.34.0',
      emulationVersion: version,
      strategy: 'OldestEmulationVersion',
      renewTime: options.renewTime(i),
    },
  });
}

/** `count` requests by `clients` workers in turn; returns the elapsed milliseconds. */
async function drive(
  count: number,
  clients: number,
  send: (i: number) => Promise<Response>,
  failures: string[],
): Promise<{ ms: number; quarterMs: number[] }> {
  const started = performance.now();
  const quarterEnds: number[] = [];
  let done = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < count; i = next++) {
      const res = await send(i);
      if (!res.ok && failures.length < 10) failures.push(`${res.status} ${await res.text()}`);
      else await res.arrayBuffer();
      done++;
      if (done % Math.max(1, Math.floor(count / 4)) === 0 && quarterEnds.length < 4)
        quarterEnds.push(performance.now());
    }
  };
  await Promise.all(Array.from({ length: clients }, worker));
  const ms = performance.now() - started;
  const quarterMs = quarterEnds.map((end, i) => end - (i === 0 ? started : (quarterEnds[i - 1] ?? started)));
  return { ms, quarterMs };
}

export async function floodCandidates(options: FloodOptions): Promise<FloodResult> {
  const failures: string[] = [];
  type Phase = 'create' | 'write' | 'done';
  const state: { phase: Phase } = { phase: 'create' };
  /** Read afresh after each await (the flood moves the phase on meanwhile). */
  const phase = (): Phase => state.phase;
  const worst = { create: 0, write: 0 };
  let probes = 0;
  const prober = (async () => {
    while (phase() !== 'done') {
      const at = performance.now();
      const res = await fetch(`${options.url}/version`);
      await res.arrayBuffer();
      const took = performance.now() - at;
      const now = phase();
      if (now !== 'done') worst[now] = Math.max(worst[now], took);
      probes++;
      await sleep(5);
    }
  })();
  const json = { 'Content-Type': 'application/json' };
  const path = options.resource === 'leases' ? LEASE_PATH : FLOOD_PATH;
  const created = await drive(
    options.candidates,
    options.clients,
    (i) => fetch(`${options.url}${path}`, { method: 'POST', headers: json, body: candidateBody(options, i) }),
    failures,
  );
  state.phase = 'write';
  const patch = { 'Content-Type': 'application/merge-patch+json' };
  const written = await drive(
    options.writes,
    options.clients,
    (i) => {
      const target = (i * 7919) % options.candidates;
      return fetch(`${options.url}${path}/${candidateName(target)}`, {
        method: 'PATCH',
        headers: patch,
        body: JSON.stringify({ spec: { renewTime: options.renewTime(options.candidates + i) } }),
      });
    },
    failures,
  );
  state.phase = 'done';
  await prober;
  return {
    createMs: created.ms,
    createQuarterMs: created.quarterMs,
    writeMs: written.ms,
    probes,
    worstProbeCreateMs: worst.create,
    worstProbeWriteMs: worst.write,
    failures,
  };
}
