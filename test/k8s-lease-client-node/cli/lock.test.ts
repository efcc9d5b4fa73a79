// `k8s-lease lock` against the Lease API server, its commands real processes: exit codes and signals passed
// through, the fencing token in the environment, --timeout, a lost Lease stopping the command, errors in one line.
// The elector underneath is the library's (client-go's tryAcquireOrRenew and release; see
// test/k8s-lease-client/runtime/leaderelection); these cases test what the command adds around it.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { start } from '../helpers.js';
import { capture, exited, run, spawnCli, until } from './harness.js';

let server: LeaseApiServer;
let kubeconfig: string;
let guarded: LeaseApiServer;
const scratch = mkdtempSync(join(tmpdir(), 'k8s-lease-lock-'));
let seq = 0;

beforeAll(async () => {
  server = await start();
  kubeconfig = await server.writeKubeconfig();
  guarded = await start({ tls: true, token: 'right' });
});
afterAll(async () => {
  await server.close();
  await guarded.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Short timings, so a lost Lease is noticed in about a second. */
const FAST = ['--lease-duration', '3s', '--renew-deadline', '2s', '--retry-period', '200ms'];
const lock = (name: string, ...rest: string[]): string[] => ['lock', name, '--kubeconfig', kubeconfig, ...rest];
const holder = (name: string): string | undefined => server.store.get('default', name)?.spec?.holderIdentity;

describe('k8s-lease lock', () => {
  it("passes the command's exit code through, then releases the Lease (holder cleared, as client-go's release)", async () => {
    const name = `exit-${++seq}`;
    const result = await run(lock(name, '--identity', 'me', '--', 'sh', '-c', 'exit 7'));
    expect(result).toMatchObject({ code: 7, err: '' });
    expect(server.store.get('default', name)?.spec).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
  });

  it('reports a command ended by a signal as a shell does (128 + N), and one it cannot start as 127', async () => {
    expect((await run(lock(`sig-${++seq}`, '--', 'sh', '-c', 'kill -KILL $$'))).code).toBe(128 + 9);
    const missing = await run(lock(`missing-${++seq}`, '--', join(scratch, 'no-such-program')));
    expect(missing.code).toBe(127);
    expect(missing.err).toBe(`k8s-lease: cannot run ${JSON.stringify(join(scratch, 'no-such-program'))}: ENOENT\n`);
  });

  it('gives the command the fencing token with --fencing-env, and nothing of it without', async () => {
    const name = `fence-${++seq}`;
    const file = join(scratch, name);
    const dump = `echo "$K8S_LEASE_NAMESPACE/$K8S_LEASE_NAME $K8S_LEASE_HOLDER $K8S_LEASE_TRANSITIONS $K8S_LEASE_ACQUIRE_TIME" > ${file}`;
    expect((await run(lock(name, '--identity', 'a', '--fencing-env', '--', 'sh', '-c', dump))).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/^default\/fence-\d+ a 0 \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z\n$/);
    // The second term counts one more transition: a receiver can refuse the older term's writes.
    expect((await run(lock(name, '--identity', 'b', '--fencing-env', '--', 'sh', '-c', dump))).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/^default\/fence-\d+ b 1 /);
    expect((await run(lock(name, '--', 'sh', '-c', dump))).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('/   \n');
  });

  it('forwards SIGTERM and SIGINT to the command, and ends with its answer', async () => {
    for (const [signal, code] of [
      ['SIGTERM', 42],
      ['SIGINT', 43],
    ] as const) {
      const name = `fwd-${++seq}`;
      const ready = join(scratch, name);
      const captured = capture();
      const script = `trap 'exit ${code}' ${signal.slice(3)}; touch ${ready}; while :; do sleep 0.05; done`;
      const done = run(lock(name, '--', 'sh', '-c', script), captured);
      await until(() => existsSync(ready));
      captured.signal(signal);
      expect((await done).code).toBe(code);
      expect(holder(name)).toBe('');
    }
  });

  it('ends with 128 + N on a signal while still waiting for the Lease, starting nothing', async () => {
    const name = `wait-${++seq}`;
    const held = spawnCli(lock(name, '--identity', 'holder', '--', 'sleep', '30'));
    await until(() => holder(name) === 'holder');
    const captured = capture();
    const waiting = run(lock(name, '--identity', 'waiter', '--', 'sh', '-c', `touch ${join(scratch, name)}`), captured);
    await new Promise((r) => setTimeout(r, 300));
    captured.signal('SIGINT');
    expect((await waiting).code).toBe(130);
    expect(existsSync(join(scratch, name))).toBe(false);
    held.kill('SIGTERM');
    expect((await exited(held)).code).toBe(128 + 15);
  });

  it('gives up after --timeout with exit code 4, naming the holder', async () => {
    const name = `timeout-${++seq}`;
    const held = spawnCli(lock(name, '--identity', 'holder', '--', 'sleep', '30'));
    await until(() => holder(name) === 'holder');
    const result = await run(lock(name, '--identity', 'late', '--timeout', '500ms', '--', 'true'));
    expect(result.code).toBe(4);
    expect(result.err).toBe(`k8s-lease: timed out after 500ms waiting for Lease default/${name} (held by "holder")\n`);
    held.kill('SIGTERM');
    await exited(held);
  });

  it('stops the command when the Lease is lost: SIGTERM, then SIGKILL after --grace, exit code 3', async () => {
    const name = `lost-${++seq}`;
    const ready = join(scratch, name);
    const captured = capture();
    // A command that ignores SIGTERM: only the SIGKILL after the grace ends it.
    const script = `trap '' TERM; touch ${ready}; while :; do sleep 0.05; done`;
    const done = run(lock(name, ...FAST, '--grace', '300ms', '--', 'sh', '-c', script), captured);
    await until(() => existsSync(ready));
    const lease = server.store.get('default', name);
    if (lease === undefined) throw new Error('no Lease');
    server.store.update({ ...lease, spec: { ...lease.spec, holderIdentity: 'thief' } });
    const lostAt = Date.now();
    expect((await done).code).toBe(3);
    // Noticed at the next renewal (retryPeriod), then the grace: well within renewDeadline + grace.
    expect(Date.now() - lostAt).toBeLessThan(2_000 + 300 + 5_000);
    expect(captured.err()).toContain(
      `k8s-lease: lost Lease default/${name}; stopping the command (SIGTERM, SIGKILL after 300ms)`,
    );
    expect(captured.err()).toContain(`k8s-lease: the command was stopped because Lease default/${name} was lost\n`);
    expect(holder(name)).toBe('thief');
  });

  it('ends at once on an error retrying cannot mend (401), in one line without the token', async () => {
    const wrong = await guarded.writeKubeconfig(undefined, { token: 'wrong-secret-token' });
    const result = await run(['lock', `denied-${++seq}`, '--kubeconfig', wrong, '--', 'true']);
    expect(result.code).toBe(1);
    expect(result.err.split('\n')).toHaveLength(2);
    expect(result.err).toMatch(/^k8s-lease: GET \S+: 401 Unauthorized/);
    expect(result.err).not.toContain('wrong-secret-token');
  });

  it('three processes contending for one Lease never run their commands at once', async () => {
    const name = `contend-${++seq}`;
    const dir = join(scratch, name);
    // mkdir is atomic: a second command running while one runs finds the folder there.
    const script = `mkdir ${dir}/running 2>/dev/null || echo overlap >> ${dir}/violations; sleep 0.2; rmdir ${dir}/running; echo ran >> ${dir}/ran`;
    mkdirSync(dir);
    const rounds = 3;
    for (let round = 0; round < rounds; round++) {
      const processes = ['a', 'b', 'c'].map((id) =>
        spawnCli(lock(name, ...FAST, '--identity', id, '--', 'sh', '-c', script)),
      );
      const results = await Promise.all(processes.map(exited));
      expect(results.map((r) => r.code)).toEqual([0, 0, 0]);
    }
    expect(existsSync(join(dir, 'violations'))).toBe(false);
    expect(readFileSync(join(dir, 'ran'), 'utf8').split('\n').filter(Boolean)).toHaveLength(rounds * 3);
  });
});
