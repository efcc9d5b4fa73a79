// Starts a generator command from its TypeScript source: esbuild bundles the
// command into .build/ and this process runs it, so `npm run generate` pays
// neither a TypeScript loader nor a second process. The bundle is rebuilt
// only when a generator source is newer than it. Usage: launch.mjs <command> [args…]
import { build } from 'esbuild';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { readdir, rename, stat } from 'node:fs/promises';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const [command, ...args] = process.argv.slice(2);
const commands = new Set(['generate', 'spec-update', 'fixtures-update']);
if (!commands.has(command)) {
  process.stderr.write(`error: unknown command ${JSON.stringify(command)} (known: ${[...commands].join(', ')})\n`);
  process.exit(2);
}

async function newestSourceMtime(dir) {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, await newestSourceMtime(path));
    else if (/\.(ts|mjs)$/.test(entry.name)) newest = Math.max(newest, (await stat(path)).mtimeMs);
  }
  return newest;
}

const bundle = join(root, '.build', `${command}.mjs`);
const built = await stat(bundle).then((s) => s.mtimeMs, () => 0);
if (built <= (await newestSourceMtime(join(root, 'generator')))) {
  // Built under a name of its own, then renamed: concurrent runs never see a half-written bundle.
  const staging = `${bundle}.${process.pid}.tmp.mjs`;
  await build({
    entryPoints: [join(root, 'generator', 'cli', `${command}.ts`)],
    outfile: staging,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  await rename(staging, bundle);
}
// The bundle sits one level below the root, as generator/config.ts does, so PROJECT_ROOT stays right.
process.argv = [process.argv[0], bundle, ...args];
await import(pathToFileURL(bundle).href);
