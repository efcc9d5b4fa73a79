import { resolve } from 'node:path';
import { generate } from '../generate.js';
import { DEFAULT_OUT_DIR, DEFAULT_SPEC_DIR } from '../config.js';
import { runCli } from './runCli.js';
import { parseFlags } from './flags.js';

await runCli(async (argv) => {
  const flags = parseFlags(argv, { 'spec-dir': 'string', out: 'string' });
  const started = performance.now();
  const result = await generate({
    specDir: resolve(flags['spec-dir'] ?? DEFAULT_SPEC_DIR),
    outDir: resolve(flags['out'] ?? DEFAULT_OUT_DIR),
    onRelease: ({ release, files, milliseconds, summary }) => console.log(`${release.padEnd(8)} ${String(files).padStart(3)} files ${String(milliseconds).padStart(5)} ms  ${summary}`),
  });
  console.log(`generated ${result.files} files in ${Math.round(performance.now() - started)} ms`);
});
