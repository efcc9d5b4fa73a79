// `k8s-lease release`: give up a Lease this identity holds, as client-go's LeaderElector.release() writes it
// (k8s.io/client-go/tools/leaderelection/leaderelection.go release: holder cleared, LeaseDurationSeconds 1,
// RenewTime and AcquireTime now, LeaderTransitions kept); --force clears another's, with a warning.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { start } from '../helpers.js';
import { run } from './harness.js';

let server: LeaseApiServer;
let kubeconfig: string;
let seq = 0;

beforeAll(async () => {
  server = await start();
  kubeconfig = await server.writeKubeconfig();
});
afterAll(() => server.close());

function held(holder: string): string {
  const name = `held-${++seq}`;
  const created = server.store.create({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace: 'default' },
    spec: { holderIdentity: holder, leaseDurationSeconds: 15, leaseTransitions: 4 },
  });
  if (!created.ok) throw new Error('seed');
  return name;
}

const release = (name: string, ...rest: string[]) => run(['release', name, '--kubeconfig', kubeconfig, ...rest]);
const spec = (name: string) => server.store.get('default', name)?.spec;

describe('k8s-lease release', () => {
  it("clears this identity's Lease as client-go's release does", async () => {
    const name = held('me');
    const result = await release(name, '--identity', 'me');
    expect(result).toMatchObject({ code: 0, err: `k8s-lease: released Lease default/${name}\n` });
    expect(spec(name)).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1, leaseTransitions: 4 });
    expect(spec(name)?.renewTime).toBe(spec(name)?.acquireTime);
  });

  it("refuses another holder's Lease, naming both identities, and changes nothing", async () => {
    const name = held('them');
    const before = server.store.get('default', name)?.metadata.resourceVersion;
    const result = await release(name, '--identity', 'me');
    expect(result.code).toBe(1);
    expect(result.err).toBe(
      `k8s-lease: Lease default/${name} is held by "them", not by "me" (--identity); --force clears another holder's\n`,
    );
    expect(server.store.get('default', name)?.metadata.resourceVersion).toBe(before);
  });

  it("clears another holder's with --force, warning that it is not told", async () => {
    const name = held('them');
    const result = await release(name, '--identity', 'me', '--force');
    expect(result.code).toBe(0);
    expect(result.err).toContain(
      `k8s-lease: warning: clearing Lease default/${name} held by "them", which is not told`,
    );
    expect(spec(name)?.holderIdentity).toBe('');
  });

  it("refuses lock's and elect's timing flags in one line, exit 2, rather than ignore them, and changes nothing", async () => {
    const name = held('me');
    const before = server.store.get('default', name)?.metadata.resourceVersion;
    for (const flag of ['--lease-duration', '--renew-deadline', '--retry-period']) {
      const result = await release(name, '--identity', 'me', flag, '3s');
      expect(result).toEqual({
        code: 2,
        out: '',
        err: `k8s-lease: release: ${flag} is an option of lock and elect, not of release\n`,
      });
    }
    expect(server.store.get('default', name)?.metadata.resourceVersion).toBe(before);
  });

  it('says a free Lease is not held, and fails in one line for a missing one', async () => {
    const name = held('');
    expect(await release(name)).toMatchObject({ code: 0, err: `k8s-lease: Lease default/${name} is not held\n` });
    const missing = await release('nope');
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^k8s-lease: GET \S+: 404 NotFound: .*\n$/);
  });
});
