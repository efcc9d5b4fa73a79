import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { request as httpsRequest } from 'node:https';
import { parse as parseYaml } from 'yaml';
import { main } from '../../templates/k8s-lease-api-server/src/cli.js';
import { startLeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import { resolveRelease } from '../../templates/k8s-lease-api-server/src/release.js';
import { manifestReleases } from '../helpers/project.js';
import { SNAPSHOT_PATH } from './helpers.js';

function capture(signal?: AbortSignal): { io: Parameters<typeof main>[1]; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: (t) => out.push(t), stderr: (t) => err.push(t), ...(signal === undefined ? {} : { signal }) },
    out,
    err,
  };
}

async function waitFor(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !predicate(); i++) await new Promise((r) => setTimeout(r, 10));
}

describe('cli', () => {
  it('prints usage for --help and fails with 2 on bad arguments', async () => {
    const help = capture();
    expect(await main(['--help'], help.io)).toBe(0);
    expect(help.out.join('')).toContain('Usage: lease-api-server serve');
    const bad = capture();
    expect(await main(['explode'], bad.io)).toBe(2);
    expect(bad.err.join('')).toBe('error: unknown command "explode" (see lease-api-server --help)\n');
  });

  it('serves until aborted, printing the URL and writing a kubeconfig', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'));
    const kubeconfig = join(dir, 'config');
    const openapi = join(dir, 'openapi.json');
    writeFileSync(openapi, readFileSync(SNAPSHOT_PATH));
    const controller = new AbortController();
    const run = capture(controller.signal);
    const exit = main(
      [
        'serve',
        '--port',
        '0',
        '--release',
        '1.30.0',
        '--openapi',
        openapi,
        '--token',
        'tok',
        '--kubeconfig',
        kubeconfig,
      ],
      run.io,
    );
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

  it('an unwritable --kubeconfig is one line and exit 1, before "listening" is printed', async () => {
    const run = capture(AbortSignal.abort());
    expect(await main(['serve', '--port', '0', '--kubeconfig', '/nonexistent/dir/kc'], run.io)).toBe(1);
    expect(run.out).toEqual([]);
    expect(run.err).toHaveLength(1);
    expect(run.err[0]).toMatch(/^error: --kubeconfig "\/nonexistent\/dir\/kc": ENOENT: .*\n$/);
    expect(run.err[0]!.split('\n')).toHaveLength(2);
  });

  it('--version names the package version and the releases the packaged server serves', () => {
    const packageDir = join(fileURLToPath(new URL('../../generated/k8s-lease-api-server/', import.meta.url)));
    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
    const newest = manifestReleases().at(-1)!.release;
    const out = execFileSync(process.execPath, [join(packageDir, 'dist', 'bin.js'), '--version'], { encoding: 'utf8' });
    expect(out).toMatch(
      new RegExp(
        `^lease-api-server ${manifest.version.replaceAll('.', '\\.')} \\(Kubernetes ${newest.replaceAll('.', '\\.')} by default; --release 1\\.29, .*\\)\n$`,
      ),
    );
    const unpackaged = capture();
    return main(['--version'], unpackaged.io).then((code) => {
      expect(code).toBe(0);
      expect(unpackaged.out.join('')).toMatch(/^lease-api-server \(unpackaged\) /);
    });
  });

  it('reports an unreadable OpenAPI file with exit code 1', async () => {
    const run = capture(AbortSignal.abort());
    expect(await main(['serve', '--port', '0', '--openapi', '/nonexistent/openapi.json'], run.io)).toBe(1);
    expect(run.err.join('')).toContain('/nonexistent/openapi.json');
  });

  it.each([
    {
      argv: ['--client-certs'],
      error: '--client-certs needs --tls (client certificates are only presented over HTTPS)',
    },
    { argv: ['--port', '70000'], error: '--port expects an integer from 0 to 65535, got "70000"' },
    { argv: ['--port', '-1'], error: '--port expects an integer from 0 to 65535, got "-1"' },
    {
      argv: ['--port=99999999999999999999'],
      error: '--port expects an integer from 0 to 65535, got "99999999999999999999"',
    },
    { argv: ['--port', '1', '--port', '2'], error: '--port is given more than once' },
    { argv: ['--nope'], error: 'unknown flag "--nope"' },
    { argv: ['--nope=1'], error: 'unknown flag "--nope"' },
    { argv: ['stray'], error: 'unexpected argument "stray"' },
    { argv: ['--tls=yes'], error: '--tls takes no value' },
    { argv: ['--tls', '--tls'], error: '--tls is given more than once' },
    { argv: ['--token', '--tls'], error: '--token needs a value' },
    { argv: ['--token'], error: '--token needs a value' },
    { argv: ['--token='], error: '--token needs a non-empty value' },
    { argv: ['--token', 't', '--forbidden-token', 't'], error: '--forbidden-token repeats the --token value' },
    { argv: ['--history', '0'], error: '--history expects an integer from 1 to 10000000, got "0"' },
    {
      argv: ['--bookmark-interval', '1.5'],
      error: '--bookmark-interval expects an integer from 1 to 2147483647, got "1.5"',
    },
    {
      argv: ['--namespaces', 'team-a,Team_B'],
      error: '--namespaces: "Team_B" is not a valid namespace name (a lowercase RFC 1123 label)',
    },
    {
      argv: ['--namespaces', 'a,,b'],
      error: '--namespaces: "" is not a valid namespace name (a lowercase RFC 1123 label)',
    },
    {
      argv: ['--release', 'banana'],
      error: '--release: release "banana" is not a Kubernetes release like 1.31 or 1.31.4',
    },
    {
      argv: ['--release', '1.31.4.5'],
      error: '--release: release "1.31.4.5" is not a Kubernetes release like 1.31 or 1.31.4',
    },
  ])('refuses $argv with one line and exit code 2, starting nothing', async ({ argv, error }) => {
    const run = capture(AbortSignal.abort());
    expect(await main(['serve', ...argv], run.io)).toBe(2);
    expect(run.err).toEqual([`error: ${error} (see lease-api-server --help)\n`]);
    expect(run.out).toEqual([]);
  });

  it('takes any well-formed release with a document of the caller, and rejects a malformed one at start', async () => {
    expect(resolveRelease('1.99', ['1.35.0'], true)).toEqual({ ok: true, value: '1.99.0' });
    await expect(startLeaseApiServer({ release: 'banana' })).rejects.toThrow(
      'release "banana" is not a Kubernetes release like 1.31 or 1.31.4',
    );
  });

  it('serves HTTPS with client certificates and the declared namespaces', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'));
    const kubeconfig = join(dir, 'config');
    const controller = new AbortController();
    const run = capture(controller.signal);
    const exit = main(
      ['serve', '--port', '0', '--tls', '--client-certs', '--namespaces', 'team-a,team-b', '--kubeconfig', kubeconfig],
      run.io,
    );
    await waitFor(() => run.out.length >= 2);
    expect(run.out[0]).toMatch(/listening on https:\/\/127\.0\.0\.1:\d+\n$/);
    const config = parseYaml(readFileSync(kubeconfig, 'utf8')) as {
      clusters: { cluster: { server: string; 'certificate-authority-data': string } }[];
      users: { user: { 'client-certificate-data': string; 'client-key-data': string } }[];
    };
    const cluster = config.clusters[0]?.cluster;
    const user = config.users[0]?.user;
    const decode = (b64: string | undefined): string => Buffer.from(b64 ?? '', 'base64').toString('utf8');
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpsRequest(
        `${cluster?.server ?? ''}/api/v1/namespaces/team-b`,
        {
          ca: decode(cluster?.['certificate-authority-data']),
          cert: decode(user?.['client-certificate-data']),
          key: decode(user?.['client-key-data']),
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
    controller.abort();
    expect(await exit).toBe(0);
  });
});
