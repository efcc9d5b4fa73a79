// `--healthz-port`: /healthz from the library's HealthzAdaptor (client-go's leaderelection/healthzadaptor.go: the
// check fails once the elector's Check(maxTolerableExpiredLease) does) in the words of apiserver's healthz handler
// (k8s.io/apiserver/pkg/server/healthz/healthz.go handleRootHealth: "ok"; a failed check "[-]NAME failed: …" and
// "healthz check failed", 500), and /metrics with client-go's leader-election figures while `lock` holds a Lease.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HealthzAdaptor, LeaderElector } from '../../../templates/k8s-lease-client/src/runtime/index.js';
import { createElectionMetrics } from '../../../templates/k8s-lease-client-node/src/cli/election-metrics.js';
import { serveHealth } from '../../../templates/k8s-lease-client-node/src/cli/health-server.js';
import { capture, run, until, useCluster } from './harness.js';

const cluster = useCluster('k8s-lease-health-');
const { scratch } = cluster;

function adaptor(failure: Error | undefined): HealthzAdaptor {
  return { name: 'leaderElection', setLeaderElection: (_e: LeaderElector) => {}, check: () => failure };
}

describe('the health server', () => {
  it('answers /healthz 200 "ok", or 500 naming the failed check; 404 elsewhere; 405 to other methods', async () => {
    const healthy = await serveHealth('127.0.0.1', 0, adaptor(undefined), createElectionMetrics());
    const stuck = await serveHealth(
      '127.0.0.1',
      0,
      adaptor(new Error('failed election to renew')),
      createElectionMetrics(),
    );
    try {
      const ok = await fetch(`${healthy.url}/healthz`);
      expect([ok.status, await ok.text()]).toEqual([200, 'ok']);
      const failed = await fetch(`${stuck.url}/healthz`);
      expect([failed.status, await failed.text()]).toEqual([
        500,
        '[-]leaderElection failed: failed election to renew\nhealthz check failed\n',
      ]);
      expect((await fetch(`${healthy.url}/other`)).status).toBe(404);
      const post = await fetch(`${healthy.url}/metrics`, { method: 'POST', body: 'x' });
      expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    } finally {
      await healthy.close();
      await stuck.close();
    }
  });

  it('refuses in one line a port it cannot listen on', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const result = await run([
        'lock',
        'busy',
        '--kubeconfig',
        cluster.kubeconfig,
        '--healthz-port',
        String(port),
        '--',
        'true',
      ]);
      expect(result).toMatchObject({
        code: 1,
        err: `k8s-lease: --healthz-port ${port}: cannot listen on 127.0.0.1: EADDRINUSE\n`,
      });
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

describe('k8s-lease lock --healthz-port', () => {
  it('serves the master status 1 while the command runs, healthy; closes once lock ends', async () => {
    const done = join(scratch, 'done');
    const captured = capture();
    const running = run(
      [
        'lock',
        'probed',
        '--kubeconfig',
        cluster.kubeconfig,
        '--healthz-port',
        '0',
        '--',
        'sh',
        '-c',
        `while [ ! -e ${done} ]; do sleep 0.05; done`,
      ],
      captured,
    );
    await until(() => /serving \/healthz and \/metrics on (\S+)\n/.test(captured.err()));
    const url = /serving \/healthz and \/metrics on (\S+)\n/.exec(captured.err())?.[1] ?? '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await until(() => cluster.server.store.get('default', 'probed')?.spec?.holderIdentity !== undefined);
    const metrics = await fetch(`${url}/metrics`);
    expect(metrics.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await metrics.text();
    expect(text).toContain('\nleader_election_master_status{name="probed"} 1\n');
    expect(text).toContain('# TYPE leader_election_slowpath_total counter\n');
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    writeFileSync(done, '');
    expect((await running).code).toBe(0);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });
});
