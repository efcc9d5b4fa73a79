import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { basename, dirname, join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { findNode } from '../../test/helpers/external-tools.js';

/** bench/.build/ (git-ignored): every built child, whichever benchmark's folder it comes from. */
const OUTDIR = join(dirname(fileURLToPath(import.meta.url)), '..', '.build');

/**
 * A Node 22 (client-node 2.x needs Node ≥ 22): the runner when it is one, else npm's build for this platform that
 * the project's postinstall installs, else one a version manager keeps (test/helpers/external-tools.ts).
 */
export const NODE22: string | undefined = findNode(22);

/** The figure a benchmark records in place of its Node 22 ones when there is none. */
export const NODE22_MISSING = "not run: no Node 22 found (NODE_22, npm's build for this platform, a version manager)";

/** `node --version` of the Node 22 binary, for the results' environment line. */
export function node22Version(node22: string): string {
  return execFileSync(node22, ['--version'], { encoding: 'utf8' }).trim();
}

/**
 * Compiles a bench child (`bench/<benchmark>/<name>.child.ts`, given as a URL beside its caller, with what
 * it imports from bench/) to plain JavaScript in bench/.build/ (git-ignored), so the clients
 * run on bare `node` — Node 20 or Node 22 alike, without tsx's loader: under
 * it, importing @kubernetes/client-node alone peaks at ~217 MB RSS instead of
 * ~111 MB, which would swamp per-client figures. Library imports stay imports
 * (node_modules resolves from bench/.build/ upwards), generated/ by absolute path.
 */
export async function buildChild(entry: URL): Promise<string> {
  const source = fileURLToPath(entry);
  mkdirSync(OUTDIR, { recursive: true });
  const outfile = join(OUTDIR, basename(source).replace(/\.ts$/, '.mjs'));
  await build({
    entryPoints: [source],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
    plugins: [
      {
        name: 'generated-dist-external',
        setup(pluginBuild) {
          pluginBuild.onResolve({ filter: /generated\/(k8s-lease-client\/)?dist\// }, (args) => ({
            path: resolvePath(args.resolveDir, args.path),
            external: true,
          }));
        },
      },
    ],
  });
  return outfile;
}
