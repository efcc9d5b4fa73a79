import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile, type Platform } from 'esbuild';
import openapiTS, { astToString } from 'openapi-typescript';
import { PROJECT_ROOT } from '../../generator/config.js';
import { recordGoals } from '../lib/goal.js';
import { goalsOf } from '../lib/goals.js';
import { environment, round, type BenchContext, type BenchResult } from '../lib/harness.js';
import { LEASE_NAME, LEASE_NAMESPACE } from '../lib/bench-lease.js';
import { startLeaseServer } from '../lib/lease-server.js';

const SPEC = join(PROJECT_ROOT, 'spec', 'openapi', 'v1.35.0.json');
const OURS_ENTRY = join(PROJECT_ROOT, 'generated', 'k8s-lease-client', 'dist', 'index.js');

interface Consumer {
  readonly key: 'ours' | 'openapi-fetch' | 'client-node';
  readonly platform: Platform;
  /** TypeScript source of `renewLease(baseUrl, namespace, name, holder)`: read the Lease, replace it with a new holder and renewTime. */
  readonly source: string;
  /** Prepended to the bundle (client-node's CommonJS dependencies `require` Node builtins, which an ESM bundle must provide). */
  readonly banner?: string;
}

/**
 * The same consumer written three ways, each the idiomatic use of its library:
 * read a Lease, set holderIdentity and renewTime, replace it, return the new
 * holder. Each throws on a failed call (ours and client-node do so
 * themselves; openapi-fetch returns `{ error }`, so its consumer checks).
 */
const CONSUMERS: readonly Consumer[] = [
  {
    key: 'ours',
    platform: 'neutral',
    source: `import { createClient, microTimeNow, readNamespacedLease, replaceNamespacedLease } from ${JSON.stringify(OURS_ENTRY)};

export async function renewLease(baseUrl: string, namespace: string, name: string, holder: string): Promise<string | undefined> {
  const client = createClient({ baseUrl });
  const lease = await readNamespacedLease(client, { namespace, name });
  const replaced = await replaceNamespacedLease(client, {
    namespace,
    name,
    body: { ...lease, spec: { ...lease.spec, holderIdentity: holder, renewTime: microTimeNow() } },
  });
  return replaced.spec?.holderIdentity;
}
`,
  },
  {
    key: 'openapi-fetch',
    platform: 'neutral',
    source: `import createClient from 'openapi-fetch';
import type { paths } from './openapi-types.js';

const LEASE = '/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}';

export async function renewLease(baseUrl: string, namespace: string, name: string, holder: string): Promise<string | undefined> {
  const client = createClient<paths>({ baseUrl });
  const read = await client.GET(LEASE, { params: { path: { namespace, name } } });
  if (read.data === undefined) throw new Error(\`read Lease: HTTP \${read.response.status}\`);
  const lease = read.data;
  // MicroTime: RFC 3339 with six fractional digits.
  const renewTime = new Date().toISOString().replace('Z', '000Z');
  const replaced = await client.PUT(LEASE, {
    params: { path: { namespace, name } },
    body: { ...lease, spec: { ...lease.spec, holderIdentity: holder, renewTime } },
  });
  if (replaced.data === undefined) throw new Error(\`replace Lease: HTTP \${replaced.response.status}\`);
  return replaced.data.spec?.holderIdentity;
}
`,
  },
  {
    key: 'client-node',
    platform: 'node',
    banner:
      "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    source: `import { CoordinationV1Api, KubeConfig, V1MicroTime } from '@kubernetes/client-node';

export async function renewLease(baseUrl: string, namespace: string, name: string, holder: string): Promise<string | undefined> {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'cluster', server: baseUrl, skipTLSVerify: true }],
    users: [{ name: 'user' }],
    contexts: [{ name: 'context', cluster: 'cluster', user: 'user' }],
    currentContext: 'context',
  });
  const api = kubeConfig.makeApiClient(CoordinationV1Api);
  const lease = await api.readNamespacedLease({ namespace, name });
  const replaced = await api.replaceNamespacedLease({
    namespace,
    name,
    body: { ...lease, spec: { ...lease.spec, holderIdentity: holder, renewTime: new V1MicroTime() } },
  });
  return replaced.spec?.holderIdentity;
}
`,
  },
];

interface Measured {
  raw: number;
  min: number;
  gzip: number;
  metafile: Metafile;
}

async function bundle(dir: string, consumer: Consumer): Promise<Measured & { code: Uint8Array }> {
  const common = {
    absWorkingDir: dir,
    entryPoints: [join(dir, `${consumer.key}.ts`)],
    bundle: true,
    format: 'esm' as const,
    platform: consumer.platform,
    write: false,
    logLevel: 'silent' as const,
    ...(consumer.banner === undefined ? {} : { banner: { js: consumer.banner } }),
  };
  const raw = await build({ ...common, minify: false });
  const min = await build({ ...common, minify: true, metafile: true });
  const rawCode = raw.outputFiles?.[0]?.contents;
  const code = min.outputFiles?.[0]?.contents;
  if (rawCode === undefined || code === undefined) throw new Error(`${consumer.key}: esbuild produced no output`);
  return {
    raw: rawCode.length,
    min: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    metafile: min.metafile,
    code,
  };
}

/** Inputs of the (single) output by bytes in the minified bundle, largest first, named relative to the project. */
function topInputs(dir: string, metafile: Metafile): Array<{ path: string; bytes: number }> {
  const output = Object.values(metafile.outputs)[0];
  if (output === undefined) return [];
  return Object.entries(output.inputs)
    .map(([path, input]) => {
      const absolute = resolve(dir, path);
      // The consumer itself lives in the temporary directory.
      const name = absolute.startsWith(dir)
        ? `(consumer) ${relative(dir, absolute)}`
        : relative(PROJECT_ROOT, absolute);
      return { path: name, bytes: input.bytesInOutput };
    })
    .filter((input) => input.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes);
}

/**
 * A consumer that reads and replaces a Lease, written with our package, with
 * openapi-fetch + openapi-typescript types (generated here from
 * spec/openapi/v1.35.0.json), and with @kubernetes/client-node; each is
 * type-checked, bundled and minified with esbuild, gzipped at level 9, and
 * run once against the benchmark Lease server so no bundle is a broken one.
 * Goals: ours ≤ 2560 bytes gzipped, and smaller than openapi-fetch's.
 */
export async function benchBundleSize(_context: BenchContext): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-bundle-'));
  try {
    // Bare imports (openapi-fetch, @kubernetes/client-node, @types/node) resolve through the project's node_modules.
    symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    writeFileSync(join(dir, 'openapi-types.ts'), astToString(await openapiTS(pathToFileURL(SPEC))));
    for (const consumer of CONSUMERS) writeFileSync(join(dir, `${consumer.key}.ts`), consumer.source);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM'],
          types: ['node'],
          strict: true,
          skipLibCheck: true,
          verbatimModuleSyntax: true,
          noEmit: true,
        },
        files: CONSUMERS.map((c) => `${c.key}.ts`),
      }),
    );
    // The consumers must be correct, typed uses of each library, or the comparison means nothing.
    const tsc = spawnSync(
      process.execPath,
      [join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir],
      { encoding: 'utf8' },
    );
    if (tsc.status !== 0) throw new Error(`consumers do not type-check:\n${tsc.stdout}${tsc.stderr}`);

    const measured = new Map<Consumer['key'], Measured>();
    const server = await startLeaseServer();
    try {
      for (const consumer of CONSUMERS) {
        const { code, ...sizes } = await bundle(dir, consumer);
        measured.set(consumer.key, sizes);
        const file = join(dir, `${consumer.key}.bundle.mjs`);
        writeFileSync(file, code);
        const module: unknown = await import(pathToFileURL(file).href);
        const renewLease: unknown =
          typeof module === 'object' && module !== null ? Reflect.get(module, 'renewLease') : undefined;
        if (typeof renewLease !== 'function') throw new Error(`${consumer.key}: bundle does not export renewLease`);
        const holder = `bench-${consumer.key}`;
        const got: unknown = await Reflect.apply(renewLease, undefined, [
          server.baseUrl,
          LEASE_NAMESPACE,
          LEASE_NAME,
          holder,
        ]);
        if (got !== holder)
          throw new Error(`${consumer.key}: bundled consumer returned ${String(got)}, expected ${holder}`);
      }
    } finally {
      await server.close();
    }

    const ours = measured.get('ours')!;
    const openapiFetch = measured.get('openapi-fetch')!;
    const clientNode = measured.get('client-node')!;
    const figures: Record<string, number | string> = {};
    for (const consumer of CONSUMERS) {
      const m = measured.get(consumer.key)!;
      figures[`${consumer.key}: bundled bytes (unminified)`] = m.raw;
      figures[`${consumer.key}: minified bytes`] = m.min;
      figures[`${consumer.key}: gzip -9 bytes`] = m.gzip;
    }
    figures['ratio ours / openapi-fetch (gzip)'] = round(ours.gzip / openapiFetch.gzip, 3);
    figures['ratio ours / client-node (gzip)'] = round(ours.gzip / clientNode.gzip, 4);
    // What dominates ours: esbuild's bytes per input in the minified bundle.
    for (const input of topInputs(dir, ours.metafile)) {
      figures[`ours breakdown: ${input.path} (minified bytes, ${round((100 * input.bytes) / ours.min, 1)}%)`] =
        input.bytes;
    }

    return {
      name: 'bundle-size',
      command: 'npm run bench -- bundle-size',
      environment: `${environment()}, esbuild bundle+minify (esm; neutral, client-node: node), gzip level 9`,
      figures,
      // The gzip goal (goals.ts) was 2,560 B before every body read became bounded and network failures a
      // ConnectionError: both sit on the path every consumer takes (+390 B; the client README's "Size").
      goals: recordGoals(goalsOf('bundle-size'), figures, {}),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
