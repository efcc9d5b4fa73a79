import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CLIENT_PACKAGE_DIR,
  installPackedPackages,
  NODE_PACKAGE_DIR,
  SERVER_PACKAGE_DIR,
  startPackedServer,
  type PackedInstall,
} from '../helpers/packed-packages.js';
import { PROJECT_ROOT, manifestReleases } from '../helpers/project.js';

/**
 * What users install: both generated packages packed and installed into a fresh project; a consumer
 * type-checked under `tsc --strict` and run against the packaged Lease API server over loopback HTTP.
 */

const TSC = join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
let install: PackedInstall;
let consumerDir: string;

beforeAll(async () => {
  install = await installPackedPackages();
  consumerDir = install.projectDir;
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

/** What users write: values from optional chains into optional inputs, no params where none is required, status codes. */
const HABITS_CONSUMER = `
import { createClient, createNamespacedLeaseWithResponse, deleteNamespacedLease, formatMicroTime, listLeaseForAllNamespaces,
  listNamespacedLease, parseMicroTime, readNamespacedLease, replaceNamespacedLease, asMicroTime, createLeaderElector, runHeartbeat,
  type Client } from 'k8s-lease-client';
import { startLeaseApiServer } from 'k8s-lease-api-server';
import { kubeconfigClientOptions, loadClientConfig } from 'k8s-lease-client-node';
import { tmpdir } from 'node:os';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Needs a real cluster (or a Pod): type-checked only. Every optional input here is possibly undefined. */
export async function againstACluster(signal: AbortSignal | undefined): Promise<void> {
  const config = await loadClientConfig({ kubeconfig: process.env.KUBECONFIG, context: process.env.KUBE_CONTEXT, root: process.env.SA_ROOT });
  const client: Client = createClient(config.clientOptions);
  const duration = process.env.LEASE_DURATION_MS === undefined ? undefined : Number(process.env.LEASE_DURATION_MS);
  const elector = createLeaderElector({
    client, namespace: config.namespace, name: 'app', identity: process.env.HOSTNAME ?? 'me',
    leaseDuration: duration, renewDeadline: undefined, retryPeriod: undefined, releaseOnCancel: true, signal,
    onStartedLeading: () => {}, onStoppedLeading: () => {},
  });
  await elector.run();
  await runHeartbeat({ client, namespace: config.namespace, name: 'node-a', identity: 'node-a', leaseDuration: duration, renewInterval: undefined, signal });
  await config.close();
}

const server = await startLeaseApiServer({ port: 0, token: process.env.LEASE_CONSUMER_TOKEN, release: process.env.LEASE_CONSUMER_RELEASE });
try {
  const kubeconfig = await server.writeKubeconfig(join(tmpdir(), \`lease-consumer-\${process.pid}.yaml\`), { namespace: process.env.LEASE_CONSUMER_NS });
  const viaKubeconfig = await kubeconfigClientOptions({ kubeconfig, context: process.env.LEASE_CONSUMER_CONTEXT, userAgent: process.env.LEASE_CONSUMER_UA });
  await listNamespacedLease(createClient(viaKubeconfig.clientOptions), { namespace: viaKubeconfig.namespace });
  await viaKubeconfig.close();
  await rm(kubeconfig);
  const client = createClient({ baseUrl: server.url, timeoutMs: 5_000, token: undefined });
  const created = await createNamespacedLeaseWithResponse(client, {
    namespace: 'default',
    body: { metadata: { name: 'habits' }, spec: { holderIdentity: 'a', renewTime: asMicroTime('2024-05-01T12:00:00.123456Z') } },
  });
  const list = await listNamespacedLease(client, { namespace: 'default', resourceVersion: undefined });
  const everywhere = await listLeaseForAllNamespaces(client);
  const lease = await readNamespacedLease(client, { namespace: 'default', name: 'habits' }, { signal: undefined });
  const parsed = parseMicroTime(lease.spec?.renewTime ?? '');
  const renewTime = formatMicroTime(parsed.date, parsed.microseconds);
  const replaced = await replaceNamespacedLease(client, { namespace: 'default', name: 'habits', body: { ...lease, spec: { ...lease.spec, renewTime, holderIdentity: lease.spec?.holderIdentity } } });
  await deleteNamespacedLease(client, { namespace: 'default', name: 'habits', body: { preconditions: { resourceVersion: replaced.metadata?.resourceVersion } } });
  console.log(JSON.stringify({ status: created.status, listRv: typeof list.metadata?.resourceVersion, everywhere: everywhere.items.length, renewTime: replaced.spec?.renewTime }));
} finally {
  await server.close();
}
`;

describe('the packed package, installed into a fresh project', () => {
  it('type-checks a consumer under tsc --strict and runs it against the packaged server', () => {
    writeFileSync(join(consumerDir, 'consumer.ts'), CONSUMER);
    writeFileSync(
      join(consumerDir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          types: ['node'],
          typeRoots: [join(PROJECT_ROOT, 'node_modules', '@types')],
          outDir: 'out',
          skipLibCheck: false,
        },
        files: ['consumer.ts'],
      }),
    );
    const compiled = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: consumerDir, encoding: 'utf8' });
    expect(compiled.stdout + compiled.stderr).toBe('');
    expect(compiled.status).toBe(0);
    const run = spawnSync(process.execPath, ['out/consumer.js'], {
      cwd: consumerDir,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      release: manifestReleases().at(-1)!.release,
      createdRv: true,
      holder: 'b',
      conflict: true,
      transitions: 1,
      renewTimeKept: true,
      listed: 1,
      olderListed: 1,
      gone: true,
    });
  });

  it('type-checks and runs a consumer in a project made by `tsc --init` plus exactOptionalPropertyTypes', () => {
    const project = join(consumerDir, 'tsc-init');
    mkdirSync(project, { recursive: true });
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'tsc-init-consumer', private: true, type: 'module' }),
    );
    const init = spawnSync(process.execPath, [TSC, '--init'], { cwd: project, encoding: 'utf8' });
    expect(init.status).toBe(0);
    // tsc --init's defaults as they are (5.9 already turns exactOptionalPropertyTypes on); only made certain.
    const generated = readFileSync(join(project, 'tsconfig.json'), 'utf8');
    const tsconfig = /"exactOptionalPropertyTypes": true/.test(generated)
      ? generated
      : generated.replace('"compilerOptions": {', '"compilerOptions": {\n    "exactOptionalPropertyTypes": true,');
    // A Node project then takes tsc --init's own advice for Node (`"types": ["node"]` with @types/node installed; here
    // this repository's own copy): the consumer reads process.env.
    const typeRoots = JSON.stringify([join(PROJECT_ROOT, 'node_modules', '@types')]);
    const forNode = tsconfig.replace(/"types": \[\]/, `"types": ["node"],\n    "typeRoots": ${typeRoots}`);
    expect(forNode).toMatch(/^\s*"types": \["node"\]/m);
    expect(tsconfig).toMatch(/^\s*"exactOptionalPropertyTypes": true/m);
    expect(tsconfig).toMatch(/^\s*"strict": true/m);
    writeFileSync(join(project, 'tsconfig.json'), forNode);
    writeFileSync(join(project, 'consumer.ts'), HABITS_CONSUMER);
    // Resolves the packages installed one level up, as in a monorepo.
    const compiled = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: project, encoding: 'utf8' });
    expect(compiled.stdout + compiled.stderr).toBe('');
    expect(compiled.status).toBe(0);
    const output = ['consumer.js', 'dist/consumer.js'].find((f) => existsSync(join(project, f)));
    expect(output).toBeDefined();
    // The LEASE_CONSUMER_* variables are unset, so the possibly-undefined inputs are undefined when run.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LEASE_CONSUMER_')));
    const run = spawnSync(process.execPath, [output!], { cwd: project, encoding: 'utf8', timeout: 30_000, env });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      status: 201,
      listRv: 'string',
      everywhere: 1,
      renewTime: '2024-05-01T12:00:00.123456Z',
    });
  });

  it('a strict consumer cannot use a field its release lacks', () => {
    writeFileSync(
      join(consumerDir, 'bad.ts'),
      `import type { LeaseSpec } from 'k8s-lease-client/v1.30';\nexport const spec: LeaseSpec = { preferredHolder: 'x' };\n`,
    );
    writeFileSync(
      join(consumerDir, 'tsconfig.bad.json'),
      JSON.stringify({
        compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', noEmit: true, types: [] },
        files: ['bad.ts'],
      }),
    );
    const compiled = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.bad.json'], {
      cwd: consumerDir,
      encoding: 'utf8',
    });
    expect(compiled.status).not.toBe(0);
    expect(compiled.stdout).toContain("'preferredHolder' does not exist in type 'LeaseSpec'");
  });

  it('runs the packaged server from the command line (npx lease-api-server serve)', async () => {
    const server = await startPackedServer(install, ['--release', '1.31']);
    const url = server.url;
    try {
      expect(await (await fetch(`${url}/version`)).json()).toMatchObject({ gitVersion: 'v1.31.1' });
      const resources = (await (await fetch(`${url}/apis/coordination.k8s.io/v1`)).json()) as {
        resources: Array<{ name: string }>;
      };
      expect(resources.resources.map((r) => r.name)).toContain('leases');
    } finally {
      await server.close();
    }
  });

  it('installs no server code or server dependency with the client alone', () => {
    const manifest = JSON.parse(readFileSync(join(CLIENT_PACKAGE_DIR, 'package.json'), 'utf8')) as {
      dependencies?: object;
      bin?: object;
      exports: object;
    };
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.bin).toBeUndefined();
    expect(Object.keys(manifest.exports)).not.toContain('./testing');
  });

  for (const [name, dir, tarball] of [
    ['k8s-lease-client', CLIENT_PACKAGE_DIR, () => install.clientTarball],
    ['k8s-lease-api-server', SERVER_PACKAGE_DIR, () => install.serverTarball],
    ['k8s-lease-client-node', NODE_PACKAGE_DIR, () => install.nodeTarball],
  ] as const) {
    it(`${name} passes publint`, async () => {
      const { publint } = await import('publint');
      const { messages } = await publint({ pkgDir: dir, level: 'suggestion', strict: true });
      expect(messages).toEqual([]);
    });

    it(`${name} passes @arethetypeswrong/cli (ESM-only package)`, () => {
      const result = spawnSync(
        process.execPath,
        [
          join(PROJECT_ROOT, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js'),
          tarball(),
          '--profile',
          'esm-only',
          '--format',
          'json',
        ],
        { encoding: 'utf8' },
      );
      const report = JSON.parse(result.stdout) as { analysis: { problems: Array<{ resolutionKind?: string }> } };
      // Every package is ESM-only on purpose (Node ≥ 20): CommonJS and node10 resolution are out of scope, as the esm-only profile says.
      expect(
        report.analysis.problems.filter((p) => p.resolutionKind !== 'node10' && p.resolutionKind !== 'node16-cjs'),
      ).toEqual([]);
      expect(result.status).toBe(0);
    });
  }
});
