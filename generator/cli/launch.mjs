// Starts a generator command from its TypeScript source: esbuild bundles the
// command (about 30 ms) and this process runs it, so `npm run generate` pays
// neither a TypeScript loader nor a second process. Usage: launch.mjs <command> [args…]
import { build } from 'esbuild';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { rm } from 'node:fs/promises';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const [command, ...args] = process.argv.slice(2);
const commands = new Set(['generate', 'spec-update']);
if (!commands.has(command)) {
  process.stderr.write(`error: unknown command ${JSON.stringify(command)} (known: ${[...commands].join(', ')})\n`);
  process.exit(2);
}
// One bundle per process: concurrent runs must not overwrite each other's.
const outfile = join(root, '.build', `${command}-${process.pid}.mjs`);
await build({
  entryPoints: [join(root, 'generator', 'cli', `${command}.ts`)],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
// The bundle sits one level below the root, as generator/config.ts does, so PROJECT_ROOT stays right.
process.argv = [process.argv[0], outfile, ...args];
try {
  await import(pathToFileURL(outfile).href);
} finally {
  await rm(outfile, { force: true });
}
