import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../templates/server/cli-args.js';
import { main } from '../../templates/server/cli.js';
import { SNAPSHOT_PATH } from './helpers.js';

function capture(signal?: AbortSignal): { io: Parameters<typeof main>[1]; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t) => out.push(t), stderr: (t) => err.push(t), ...(signal === undefined ? {} : { signal }) }, out, err };
}

async function waitFor(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !predicate(); i++) await new Promise((r) => setTimeout(r, 10));
}

describe('cli', () => {
  it('parses serve flags in both --flag value and --flag=value forms', () => {
    const parsed = parseCommand(['serve', '--port=0', '--release', '1.31.1', '--token', 't', '--forbidden-token', 'f1', '--forbidden-token=f2', '--tls', '--history', '50']);
    expect(parsed.ok && parsed.value).toEqual({
      kind: 'serve',
      args: expect.objectContaining({ port: 0, release: '1.31.1', token: 't', forbiddenTokens: ['f1', 'f2'], tls: true, clientCertificates: false, historyWindow: 50 }),
    });
    expect(parseCommand(['serve', '--port', 'abc']).ok).toBe(false);
    expect(parseCommand(['serve', '--nope']).ok).toBe(false);
  });

  it('prints usage for --help and fails with 2 on bad arguments', async () => {
    const help = capture();
    expect(await main(['--help'], help.io)).toBe(0);
    expect(help.out.join('')).toContain('Usage: lease-api-server serve');
    const bad = capture();
    expect(await main(['explode'], bad.io)).toBe(2);
    expect(bad.err.join('')).toContain('unknown command "explode"');
  });

  it('serves until aborted, printing the URL and writing a kubeconfig', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'));
    const kubeconfig = join(dir, 'config');
    const openapi = join(dir, 'openapi.json');
    writeFileSync(openapi, readFileSync(SNAPSHOT_PATH));
    const controller = new AbortController();
    const run = capture(controller.signal);
    const exit = main(['serve', '--port', '0', '--release', '1.30.0', '--openapi', openapi, '--token', 'tok', '--kubeconfig', kubeconfig], run.io);
    await waitFor(() => run.out.length >= 2);
    const url = /listening on (http:\/\/\S+)/.exec(run.out[0] ?? '')?.[1] ?? '';
    expect(run.out[0]).toContain('Lease API server (Kubernetes 1.30.0) listening on http://127.0.0.1:');
    expect(run.out[1]).toBe(`Wrote kubeconfig to ${kubeconfig}\n`);
    expect(readFileSync(kubeconfig, 'utf8')).toContain(`server: "${url}"`);
    const version = await fetch(`${url}/version`);
    expect(((await version.json()) as { gitVersion: string }).gitVersion).toBe('v1.30.0');
    expect((await fetch(`${url}/apis/coordination.k8s.io/v1/leases`)).status).toBe(401);
    controller.abort();
    expect(await exit).toBe(0);
  });

  it('reports an unreadable OpenAPI file with exit code 1', async () => {
    const run = capture(AbortSignal.abort());
    expect(await main(['serve', '--port', '0', '--openapi', '/nonexistent/openapi.json'], run.io)).toBe(1);
    expect(run.err.join('')).toContain('/nonexistent/openapi.json');
  });
});
