// Builds what each runtime runs from scenario.ts: for Node, Deno and Bun an ES module that imports the
// client's built files (generated/k8s-lease-client/dist) as they are, so each runtime loads the package's
// own module graph; for the browser one script with the client bundled in, as a dashboard ships it.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { Plugin } from 'esbuild';

const HERE = fileURLToPath(new URL('.', import.meta.url));
export const CLIENT_DIST: string = fileURLToPath(
  new URL('../../generated/k8s-lease-client/dist/index.js', import.meta.url),
);

/** `k8s-lease-client` stays an import, of the built package's file by absolute URL (Deno has no node_modules lookup here). */
const clientAsFile: Plugin = {
  name: 'client-as-file',
  setup(b) {
    b.onResolve({ filter: /^k8s-lease-client$/ }, () => ({ path: pathToFileURL(CLIENT_DIST).href, external: true }));
  },
};

export interface ScenarioBuild {
  /** ES module for `node|deno run|bun` with arguments `<baseUrl> <namespace>`. */
  entry: string;
  /** Classic script defining `globalThis.leaseScenario`, the client bundled in. */
  browser: string;
}

export async function buildScenario(outDir: string): Promise<ScenarioBuild> {
  await mkdir(outDir, { recursive: true });
  const entry = join(outDir, 'entry.mjs');
  const browser = join(outDir, 'browser.js');
  // es2022: what the package promises (Node 20); top-level await in the entry needs ESM.
  await build({
    entryPoints: [join(HERE, 'entry.ts')],
    outfile: entry,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    plugins: [clientAsFile],
    logLevel: 'error',
  });
  await build({
    entryPoints: [join(HERE, 'browser.ts')],
    outfile: browser,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'error',
  });
  return { entry, browser };
}
