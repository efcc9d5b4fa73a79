import { resolve } from 'node:path';
import { generate } from '../generate.js';
import { DEFAULT_OUT_DIR, DEFAULT_SPEC_DIR } from '../config.js';
import { runCli } from './run-cli.js';
import { parseCommandLine } from './flags.js';

const COMMAND = {
  name: 'generate',
  synopsis: '[--spec-dir DIR] [--out DIR]',
  summary:
    'Regenerates the packages (k8s-lease-client, k8s-lease-api-server, k8s-lease-client-node) for every release in the manifest, offline.',
  options: {
    'spec-dir': {
      kind: 'string',
      value: 'DIR',
      help: 'the spec directory with releases.json and openapi/ (default: spec/)',
    },
    out: { kind: 'string', value: 'DIR', help: 'the output directory, replaced as a whole (default: generated/)' },
  },
} as const;

await runCli(async (argv) => {
  const parsed = parseCommandLine(argv, COMMAND);
  if (parsed.help) return void process.stdout.write(parsed.usage);
  const { flags } = parsed;
  const started = performance.now();
  const result = await generate({
    specDir: resolve(flags['spec-dir'] ?? DEFAULT_SPEC_DIR),
    outDir: resolve(flags['out'] ?? DEFAULT_OUT_DIR),
    onRelease: ({ release, files, milliseconds, summary }) =>
      console.log(
        `${release.padEnd(8)} ${String(files).padStart(3)} files ${String(milliseconds).padStart(5)} ms  ${summary}`,
      ),
  });
  console.log(`generated ${result.files} files in ${Math.round(performance.now() - started)} ms`);
});
