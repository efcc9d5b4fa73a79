// `k8s-lease get` and `list`: kubectl's table (its columns and age wording, compared with kubectl's own output on
// the same server) plus RENEWED, EXPIRED and TRANSITIONS; -A, -l, -o json|yaml|wide as kubectl prints them.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { findKubectl } from '../../helpers/external-tools.js';
import { describeWithTool } from '../../helpers/needs-tool.js';
import { start } from '../helpers.js';
import { run } from './harness.js';

let server: LeaseApiServer;
let kubeconfig: string;
const NS = 'other';
const ago = (ms: number): string => new Date(Date.now() - ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

beforeAll(async () => {
  server = await start();
  kubeconfig = await server.writeKubeconfig();
  const put = (name: string, spec: Record<string, unknown>, labels: Record<string, string> = {}): void => {
    const created = server.store.create({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name, namespace: NS, labels },
      spec,
    });
    if (!created.ok) throw new Error(`seed ${name}`);
  };
  put(
    'fresh',
    {
      holderIdentity: 'pod-a',
      leaseDurationSeconds: 15,
      renewTime: ago(2_000),
      acquireTime: ago(90_000),
      leaseTransitions: 3,
    },
    { app: 'web' },
  );
  put('stale', { holderIdentity: 'pod-b', leaseDurationSeconds: 15, renewTime: ago(600_000), leaseTransitions: 1 });
  put('free', {}, { app: 'web' });
});
afterAll(() => server.close());

const show = (...args: string[]) => run([...args, '--kubeconfig', kubeconfig]);

describe('k8s-lease get / list', () => {
  it("prints kubectl's columns, then the time since renewal, expiry and transitions", async () => {
    const result = await show('get', '-n', NS);
    expect(result.code).toBe(0);
    const lines = result.out.trimEnd().split('\n');
    expect(lines[0]?.split(/\s{3,}/)).toEqual(['NAME', 'HOLDER', 'AGE', 'RENEWED', 'EXPIRED', 'TRANSITIONS']);
    const rows = Object.fromEntries(lines.slice(1).map((line) => [line.split(/\s+/)[0], line]));
    expect(rows['fresh']).toMatch(/^fresh\s+pod-a\s+\d+s\s+[23]s\s+false\s+3$/);
    expect(rows['stale']).toMatch(/^stale\s+pod-b\s+\d+s\s+10m\s+true\s+1$/);
    expect(rows['free']).toMatch(/^free\s+\d+s\s+<none>\s+true\s+0$/);
  });

  it('selects with -l, names the namespace with -A, widens with -o wide', async () => {
    const selected = await show('list', '-n', NS, '-l', 'app=web');
    expect(
      selected.out
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((l) => l.split(/\s+/)[0]),
    ).toEqual(['free', 'fresh']);
    const all = await show('list', '-A', '-l', 'app=web');
    expect(all.out.split('\n')[0]?.split(/\s{3,}/)[0]).toBe('NAMESPACE');
    expect(all.out).toMatch(/\nother\s+fresh\s+pod-a/);
    const wide = await show('get', 'fresh', '-n', NS, '-o', 'wide');
    expect(
      wide.out
        .split('\n')[0]
        ?.split(/\s{3,}/)
        .slice(-3),
    ).toEqual(['DURATION', 'ACQUIRED', 'PREFERRED-HOLDER']);
    expect(wide.out).toMatch(/\s15s\s+90s\s+<none>\n$/);
  });

  it("says there is nothing on stderr in kubectl's words, printing no table", async () => {
    const empty = await show('list', '-n', 'elsewhere');
    expect(empty).toMatchObject({ code: 0, out: '', err: 'No resources found in elsewhere namespace.\n' });
  });

  it('prints -o json and -o yaml as kubectl does: one object, or a List; keys sorted, no managedFields', async () => {
    const one = await show('get', 'fresh', '-n', NS, '-o', 'json');
    const parsed = JSON.parse(one.out) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    expect(one.out).not.toContain('managedFields');
    const list = parse((await show('list', '-n', NS, '-o', 'yaml')).out) as Record<string, unknown>;
    expect(list).toMatchObject({ apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' } });
    expect((list['items'] as unknown[]).length).toBe(3);
    // YAML 1.1 quoting, as sigs.k8s.io/yaml: a timestamp string stays a quoted string.
    expect((await show('get', 'fresh', '-n', NS, '-o', 'yaml')).out).toMatch(/creationTimestamp: "\d{4}-/);
  });

  it('fails in one line for a Lease that does not exist', async () => {
    const missing = await show('get', 'nope', '-n', NS);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(
      /^k8s-lease: GET \S+\/leases\/nope: 404 NotFound: leases.coordination.k8s.io "nope" not found\n$/,
    );
  });
});

describeWithTool('kubectl', findKubectl(), 'k8s-lease get beside kubectl get leases', (kubectl) => {
  it('has the same NAME, HOLDER and AGE columns, row for row, in the same age wording', async () => {
    const home = mkdtempSync(join(tmpdir(), 'kubectl-home-'));
    // Not execFileSync: the server answering kubectl runs in this process.
    const { stdout: theirs } = await promisify(execFile)(
      kubectl.path,
      ['--kubeconfig', kubeconfig, 'get', 'leases', '-n', NS],
      {
        encoding: 'utf8',
        env: { ...process.env, HOME: home, KUBECACHEDIR: join(home, 'cache') },
      },
    );
    const ours = (await show('get', '-n', NS)).out;
    const columns = (table: string): string[][] =>
      table
        .trimEnd()
        .split('\n')
        .map((line) => {
          // Cut at kubectl's column starts, read off its header: an empty HOLDER is blank in both.
          const header = table.split('\n')[0] ?? '';
          const starts = ['NAME', 'HOLDER', 'AGE'].map((c) => header.indexOf(c));
          return starts.map(
            (at, i) =>
              line
                .slice(at, i === 2 ? undefined : starts[i + 1])
                .trim()
                .split(/\s+/)[0] ?? '',
          );
        });
    expect(columns(ours)).toEqual(columns(theirs));
  });
});
