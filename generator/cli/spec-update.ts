import { resolve } from 'node:path';
import { specUpdate } from '../specUpdate.js';
import { DEFAULT_OUT_DIR, DEFAULT_SPEC_DIR } from '../config.js';
import { runCli, usageError } from './runCli.js';
import { parseFlags } from './flags.js';

await runCli(async (argv) => {
  const flags = parseFlags(argv, { release: 'string', from: 'string', spec: 'string', 'spec-dir': 'string', out: 'string', 'no-generate': 'boolean' });
  if (flags.release === undefined) throw usageError('usage: spec:update --release <x.y.z> [--from DIR | --spec FILE] [--no-generate]');
  if (flags.from !== undefined && flags.spec !== undefined) throw usageError('give either --from DIR or --spec FILE, not both');
  const result = await specUpdate({
    release: flags.release,
    ...(flags.from !== undefined ? { from: resolve(flags.from) } : {}),
    ...(flags.spec !== undefined ? { spec: resolve(flags.spec) } : {}),
    specDir: resolve(flags['spec-dir'] ?? DEFAULT_SPEC_DIR),
    outDir: resolve(flags.out ?? DEFAULT_OUT_DIR),
    generate: flags['no-generate'] !== true,
  });
  console.log(`${result.release}: ${result.changed ? 'updated' : 'unchanged'} from ${result.source} (${result.contentHash}); API ${result.summary}`);
});
