// `k8s-lease elect`: run the command whenever this replica leads; --restart decides what its end while leading
// does; lost leadership stops it and the replica rejoins (a new elector: the library's are one candidacy each).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { restarts } from '../../../templates/k8s-lease-client-node/src/cli/elect.js';
import { capture, run, until, useCluster } from './harness.js';

const cluster = useCluster('k8s-lease-elect-');
const { scratch } = cluster;
let seq = 0;

const FAST = ['--lease-duration', '3s', '--renew-deadline', '2s', '--retry-period', '200ms', '--grace', '300ms'];
const elect = (name: string, ...rest: string[]): string[] => [
  'elect',
  name,
  '--kubeconfig',
  cluster.kubeconfig,
  ...FAST,
  ...rest,
];
const lines = (file: string): string[] =>
  existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];

describe('k8s-lease elect', () => {
  it('restart policies: always and on-failure restart a failed command, never does not', () => {
    expect([restarts('always', 0), restarts('always', 1)]).toEqual([true, true]);
    expect([restarts('on-failure', 0), restarts('on-failure', 1)]).toEqual([false, true]);
    expect([restarts('never', 0), restarts('never', 1)]).toEqual([false, false]);
  });

  it('--restart never: runs the command once while leading, steps down, ends with its code', async () => {
    const name = `never-${++seq}`;
    const result = await run(elect(name, '--restart', 'never', '--', 'sh', '-c', 'exit 5'));
    expect(result.code).toBe(5);
    expect(cluster.server.store.get('default', name)?.spec?.holderIdentity).toBe('');
  });

  it('--restart on-failure: starts a failed command again while leading, ends once it succeeds', async () => {
    const name = `onfail-${++seq}`;
    const file = join(scratch, name);
    const script = `echo run >> ${file}; [ $(wc -l < ${file}) -ge 2 ]`;
    const result = await run(elect(name, '--restart', 'on-failure', '--', 'sh', '-c', script));
    expect(result.code).toBe(0);
    expect(lines(file)).toEqual(['run', 'run']);
  });

  it('stops the command when leadership is lost, rejoins, runs it again once it leads again; a signal ends it all', async () => {
    const name = `rejoin-${++seq}`;
    const file = join(scratch, name);
    const captured = capture();
    const script = `echo start >> ${file}; trap 'echo term >> ${file}; exit 0' TERM; while :; do sleep 0.05; done`;
    const done = run(elect(name, '--', 'sh', '-c', script), captured);
    await until(() => lines(file).length === 1);
    // Another holder takes the Lease, and never renews it: it expires by this replica's observation.
    const lease = cluster.server.store.get('default', name);
    if (lease === undefined) throw new Error('no Lease');
    cluster.server.store.update({
      ...lease,
      spec: { ...lease.spec, holderIdentity: 'thief', leaseDurationSeconds: 1 },
    });
    await until(() => lines(file).length === 3);
    expect(lines(file)).toEqual(['start', 'term', 'start']);
    expect(captured.err()).toContain(`k8s-lease: lost leadership of default/${name}; stopping the command`);
    expect(captured.err()).toContain(`k8s-lease: rejoining the election for default/${name}`);
    captured.signal('SIGTERM');
    expect((await done).code).toBe(0);
    expect(lines(file)).toEqual(['start', 'term', 'start', 'term']);
    expect(cluster.server.store.get('default', name)?.spec?.holderIdentity).toBe('');
  });

  it('refuses an unknown --restart in one line', async () => {
    const bad = await run(elect('x', '--restart', 'sometimes', '--', 'true'));
    expect(bad).toMatchObject({
      code: 2,
      err: 'k8s-lease: elect: --restart "sometimes": expected always, on-failure or never\n',
    });
  });
});
