import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { PROJECT_ROOT } from '../helpers/project.js';

/**
 * What users install: `npm pack` both generated packages, install the tarballs
 * into a fresh project (the server's own dependencies come from the registry),
 * type-check a consumer under `tsc --strict` and run it against the packaged
 * Lease API server over loopback HTTP.
 */
const CLIENT = join(PROJECT_ROOT, 'generated', 'k8s-lease-client');
const SERVER = join(PROJECT_ROOT, 'generated', 'k8s-lease-api-server');
const TSC = join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
let clientTarball: string;
let serverTarball: string;
let consumerDir: string;

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'error', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } });
}

beforeAll(() => {
  const pack = (dir: string): string => {
    const packDir = tempDir('lease-pack-');
    npm(['pack', '--pack-destination', packDir], dir);
    return join(packDir, readdirSync(packDir).find((f) => f.endsWith('.tgz'))!);
  };
  clientTarball = pack(CLIENT);
  serverTarball = pack(SERVER);
  consumerDir = tempDir('lease-consumer-');
  writeFileSync(join(consumerDir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // --prefer-offline: the server's dependencies (yaml, fast-json-patch, @peculiar/x509) come from npm's cache when this
  // project's own install put them there, else from the registry, as for any user.
  npm(['install', '--prefer-offline', '--no-package-lock', clientTarball, serverTarball], consumerDir);
}, 240_000);

const CONSUMER = `
import { createClient, createNamespacedLease, readNamespacedLease, replaceNamespacedLease, patchNamespacedLease, listNamespacedLease,
  deleteNamespacedLease, isConflict, isNotFound, microTimeNow, parseMicroTime, release, type Lease } from 'k8s-lease-client';
import * as v130 from 'k8s-lease-client/v1.30';
import { startLeaseApiServer } from 'k8s-lease-api-server';

const server = await startLeaseApiServer({ port: 0 });
try {
  const client = createClient({ baseUrl: server.url, timeoutMs: 5_000 });
  const renewTime = microTimeNow();
  const created: Lease = await createNamespacedLease(client, { namespace: 'default', body: { metadata: { name: 'leader' }, spec: { holderIdentity: 'a', leaseDurationSeconds: 15, renewTime } } });
  const read = await readNamespacedLease(client, { namespace: 'default', name: 'leader' });
  const stale = { ...read };
  read.spec = { ...read.spec, holderIdentity: 'b' };
  const replaced = await replaceNamespacedLease(client, { namespace: 'default', name: 'leader', body: read });
  let conflict = false;
  try { await replaceNamespacedLease(client, { namespace: 'default', name: 'leader', body: stale }); } catch (e) { conflict = isConflict(e); }
  const patched = await patchNamespacedLease(client, { namespace: 'default', name: 'leader', patch: { type: 'merge', body: { spec: { leaseTransitions: 1 } } } });
  const older = await v130.listNamespacedLease(client, { namespace: 'default' });
  const list = await listNamespacedLease(client, { namespace: 'default', limit: 10 });
  await deleteNamespacedLease(client, { namespace: 'default', name: 'leader' });
  let gone = false;
  try { await readNamespacedLease(client, { namespace: 'default', name: 'leader' }); } catch (e) { gone = isNotFound(e); }
  console.log(JSON.stringify({
    release,
    createdRv: created.metadata?.resourceVersion !== undefined,
    holder: replaced.spec?.holderIdentity,
    conflict,
    transitions: patched.spec?.leaseTransitions,
    renewTimeKept: read.spec?.renewTime === renewTime && parseMicroTime(renewTime).microseconds >= 0,
    listed: list.items.length,
    olderListed: older.items.length,
    gone,
  }));
} finally {
  await server.close();
}
`;

describe('the packed package, installed into a fresh project', () => {
  it('type-checks a consumer under tsc --strict and runs it against the packaged server', () => {
    writeFileSync(join(consumerDir, 'consumer.ts'), CONSUMER);
    writeFileSync(
      join(consumerDir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', types: ['node'], typeRoots: [join(PROJECT_ROOT, 'node_modules', '@types')], outDir: 'out', skipLibCheck: false }, files: ['consumer.ts'] }),
    );
    const compiled = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: consumerDir, encoding: 'utf8' });
    expect(compiled.stdout + compiled.stderr).toBe('');
    expect(compiled.status).toBe(0);
    const run = spawnSync(process.execPath, ['out/consumer.js'], { cwd: consumerDir, encoding: 'utf8', timeout: 30_000 });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ release: '1.35.0', createdRv: true, holder: 'b', conflict: true, transitions: 1, renewTimeKept: true, listed: 1, olderListed: 1, gone: true });
  });

  it('a strict consumer cannot use a field its release lacks', () => {
    writeFileSync(join(consumerDir, 'bad.ts'), `import type { LeaseSpec } from 'k8s-lease-client/v1.30';\nexport const spec: LeaseSpec = { preferredHolder: 'x' };\n`);
    writeFileSync(join(consumerDir, 'tsconfig.bad.json'), JSON.stringify({ compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', noEmit: true, types: [] }, files: ['bad.ts'] }));
    const compiled = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.bad.json'], { cwd: consumerDir, encoding: 'utf8' });
    expect(compiled.status).not.toBe(0);
    expect(compiled.stdout).toContain("'preferredHolder' does not exist in type 'LeaseSpec'");
  });

  it('runs the packaged server from the command line (npx lease-api-server serve)', async () => {
    const child = spawn(join(consumerDir, 'node_modules', '.bin', 'lease-api-server'), ['serve', '--port', '0', '--release', '1.31'], { cwd: consumerDir, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /listening on (http:\/\/\S+)/.exec(out);
          if (match !== null) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
      });
      expect(await (await fetch(`${url}/version`)).json()).toMatchObject({ gitVersion: 'v1.31.1' });
      const resources = (await (await fetch(`${url}/apis/coordination.k8s.io/v1`)).json()) as { resources: Array<{ name: string }> };
      expect(resources.resources.map((r) => r.name)).toContain('leases');
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('installs no server code or server dependency with the client alone', () => {
    const manifest = JSON.parse(readFileSync(join(CLIENT, 'package.json'), 'utf8')) as { dependencies?: object; bin?: object; exports: object };
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.bin).toBeUndefined();
    expect(Object.keys(manifest.exports)).not.toContain('./testing');
  });

  for (const [name, dir, tarball] of [['k8s-lease-client', CLIENT, () => clientTarball], ['k8s-lease-api-server', SERVER, () => serverTarball]] as const) {
    it(`${name} passes publint`, async () => {
      const { publint } = await import('publint');
      const { messages } = await publint({ pkgDir: dir, level: 'suggestion', strict: true });
      expect(messages).toEqual([]);
    });

    it(`${name} passes @arethetypeswrong/cli (ESM-only package)`, () => {
      const result = spawnSync(process.execPath, [join(PROJECT_ROOT, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js'), tarball(), '--profile', 'esm-only', '--format', 'json'], { encoding: 'utf8' });
      const report = JSON.parse(result.stdout) as { analysis: { problems: Array<{ resolutionKind?: string }> } };
      // Both packages are ESM-only on purpose (Node ≥ 20): CommonJS and node10 resolution are out of scope, as the esm-only profile says.
      expect(report.analysis.problems.filter((p) => p.resolutionKind !== 'node10' && p.resolutionKind !== 'node16-cjs')).toEqual([]);
      expect(result.status).toBe(0);
    });
  }
});
