// `k8s-lease watch` against the Lease API server: on a pipe, the header once and one row per change, as kubectl's
// `get --watch` prints (kubernetes/kubectl pkg/cmd/get/get.go, GetOptions.watch: the initial list through the
// printer, then printer.PrintObj for each event, the deleted object included, with the header suppressed after the
// first print); on a terminal, the table redrawn in place; -o json|yaml each event's object (printers/yaml.go
// writes `---` between documents); SIGINT/SIGTERM end it with 128 + N; a refused request in one line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { start } from '../helpers.js';
import { capture, exited, run, spawnCli, until } from './harness.js';

let server: LeaseApiServer;
let kubeconfig: string;
/** One namespace per case, so each case's watch sees only its own Leases. */
const NAMESPACES = ['pipe', 'empty', 'tty', 'objects', 'process'];

beforeAll(async () => {
  server = await start({ namespaces: NAMESPACES });
  kubeconfig = await server.writeKubeconfig();
});
afterAll(() => server.close());

function put(namespace: string, name: string, holderIdentity: string, labels: Record<string, string> = {}): void {
  const renewTime = new Date().toISOString().replace('Z', '000Z');
  const spec: Record<string, unknown> = { holderIdentity, leaseDurationSeconds: 15, renewTime };
  const created = server.store.create({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace, labels },
    spec,
  });
  if (!created.ok) throw new Error(`seed ${namespace}/${name}`);
}

function takeOver(namespace: string, name: string, holderIdentity: string): void {
  const lease = server.store.get(namespace, name);
  if (lease === undefined) throw new Error(`no Lease ${namespace}/${name}`);
  server.store.update({ ...lease, spec: { ...lease.spec, holderIdentity } });
}

const watching = (namespace: string, ...rest: string[]): string[] => [
  'watch',
  '-n',
  namespace,
  '--kubeconfig',
  kubeconfig,
  ...rest,
];
const rows = (out: string): string[] => out.trimEnd().split('\n');

describe('k8s-lease watch', () => {
  it('on a pipe: the table once, then one row per added, changed or deleted Lease; SIGINT exits 130', async () => {
    const ns = 'pipe';
    put(ns, 'a', 'pod-1');
    put(ns, 'b', 'pod-2');
    const captured = capture();
    const done = run(watching(ns), captured);
    await until(() => rows(captured.out()).length === 3);
    expect(rows(captured.out())[0]?.split(/\s{3,}/)).toEqual([
      'NAME',
      'HOLDER',
      'AGE',
      'RENEWED',
      'EXPIRED',
      'TRANSITIONS',
    ]);
    expect(rows(captured.out()).slice(1)).toEqual([
      expect.stringMatching(/^a\s+pod-1\s/),
      expect.stringMatching(/^b\s+pod-2\s/),
    ]);
    put(ns, 'c', 'pod-3');
    await until(() => rows(captured.out()).length === 4);
    takeOver(ns, 'a', 'pod-9');
    await until(() => rows(captured.out()).length === 5);
    expect(server.store.delete(ns, 'b').ok).toBe(true);
    await until(() => rows(captured.out()).length === 6);
    expect(rows(captured.out()).slice(3)).toEqual([
      expect.stringMatching(/^c\s+pod-3\s/),
      expect.stringMatching(/^a\s+pod-9\s/),
      expect.stringMatching(/^b\s+pod-2\s/),
    ]);
    expect(captured.out().match(/NAME/g)).toHaveLength(1);
    captured.signal('SIGINT');
    expect(await done).toMatchObject({ code: 130, err: '' });
  });

  it('on a pipe with nothing yet: says so on stderr, and prints the header with the first row', async () => {
    const ns = 'empty';
    const captured = capture();
    const done = run(watching(ns, '-l', 'app=web'), captured);
    await until(() => captured.err() !== '');
    expect(captured.err()).toBe(`No resources found in ${ns} namespace.\n`);
    put(ns, 'unselected', 'pod-0');
    put(ns, 'selected', 'pod-1', { app: 'web' });
    await until(() => rows(captured.out()).length === 2);
    expect(rows(captured.out())[0]).toMatch(/^NAME\s+HOLDER/);
    expect(rows(captured.out())[1]).toMatch(/^selected\s+pod-1\s/);
    captured.signal('SIGTERM');
    expect((await done).code).toBe(143);
  });

  it('on a terminal: redraws the whole table in place (cursor up over the last one, erase below)', async () => {
    const ns = 'tty';
    put(ns, 'a', 'pod-1');
    const captured = capture(Date.now, true);
    const done = run(watching(ns), captured);
    await until(() => captured.out().includes('pod-1'));
    put(ns, 'b', 'pod-2');
    await until(() => captured.out().includes('pod-2'));
    const frames = captured.out().split('\x1b[J');
    // The first frame moves nowhere; the second moves up over the two lines drawn (header and one row).
    expect(frames[0]).toBe('');
    expect(frames[1]).toMatch(/\x1b\[2A$/);
    expect(rows(frames[2] ?? '').map((line) => line.split(/\s+/)[0])).toEqual(['NAME', 'a', 'b']);
    captured.signal('SIGINT');
    expect((await done).code).toBe(130);
  });

  it('-A names the namespace; -o json and -o yaml print each object, the initial ones first', async () => {
    const ns = 'objects';
    put(ns, 'a', 'pod-1', { watch: ns });
    const json = capture();
    const jsonDone = run(['watch', '-A', '-l', `watch=${ns}`, '-o', 'json', '--kubeconfig', kubeconfig], json);
    const yaml = capture();
    const yamlDone = run(watching(ns, '-o', 'yaml'), yaml);
    await until(() => json.out().includes('pod-1') && yaml.out().includes('pod-1'));
    takeOver(ns, 'a', 'pod-2');
    await until(() => json.out().includes('pod-2') && yaml.out().includes('pod-2'));
    const objects = json
      .out()
      .split(/\n(?=\{)/)
      .map((text) => JSON.parse(text) as { spec: { holderIdentity: string }; metadata: Record<string, unknown> });
    expect(objects.map((o) => o.spec.holderIdentity)).toEqual(['pod-1', 'pod-2']);
    expect(objects[0]?.metadata).not.toHaveProperty('managedFields');
    const documents = parseAllDocuments(yaml.out()).map((d) => d.toJSON() as { spec: { holderIdentity: string } });
    expect(documents.map((d) => d.spec.holderIdentity)).toEqual(['pod-1', 'pod-2']);
    expect(parse(yaml.out().split('---\n')[0] ?? '')).toMatchObject({ kind: 'Lease', metadata: { name: 'a' } });
    json.signal('SIGINT');
    yaml.signal('SIGINT');
    expect((await jsonDone).code).toBe(130);
    expect((await yamlDone).code).toBe(130);
  });

  it('as a real process on a pipe: prints the table, and SIGINT ends it with 130 and nothing on stderr', async () => {
    put('process', 'a', 'pod-1');
    const child = spawnCli(['watch', '-n', 'process', '--kubeconfig', kubeconfig]);
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    const ended = exited(child);
    await until(() => out.includes('pod-1'));
    child.kill('SIGINT');
    expect(await ended).toEqual({ code: 130, signal: null, err: '' });
    expect(rows(out)).toEqual([expect.stringMatching(/^NAME\s+HOLDER/), expect.stringMatching(/^a\s+pod-1\s/)]);
  });

  it('fails in one line when the server refuses the list (401), and refuses a name', async () => {
    const guarded = await start({ tls: true, token: 'right' });
    try {
      const wrong = await guarded.writeKubeconfig(undefined, { token: 'wrong-secret-token' });
      const result = await run(['watch', '--kubeconfig', wrong]);
      expect(result.code).toBe(1);
      expect(result.err).toMatch(/^k8s-lease: GET \S+: 401 Unauthorized[^\n]*\n$/);
      expect(result.err).not.toContain('wrong-secret-token');
    } finally {
      await guarded.close();
    }
    expect(await run(['watch', 'a'])).toMatchObject({
      code: 2,
      err: 'k8s-lease: watch: unexpected "a" (watch takes no name; select with -l)\n',
    });
  });
});
