import { resolve } from 'node:path';
import { specUpdate } from '../spec-update.js';
import { DEFAULT_GOLDEN_DIR, DEFAULT_OUT_DIR, DEFAULT_SPEC_DIR, TEMPLATES_DIR } from '../config.js';
import { packageChangelogPath } from '../generate.js';
import { displayPath } from '../config.js';
import { checkRelease } from '../shared/release-names.js';
import { runCli, usageError } from './run-cli.js';
import { parseCommandLine, usageText } from './flags.js';

const COMMAND = {
  name: 'spec:update',
  synopsis:
    '--release X.Y.Z [--from DIR | --spec FILE] [--spec-dir DIR] [--out DIR] [--golden-dir DIR] [--package-changelog FILE] [--no-generate]',
  summary:
    'Adds or refreshes one Kubernetes release: ingests its upstream document, writes spec/openapi/v<release>.json and the manifest entry, and regenerates the packages.',
  options: {
    release: {
      kind: 'string',
      value: 'X.Y.Z',
      help: 'the Kubernetes release, e.g. 1.35.0 (decimal numbers without leading zeros)',
    },
    from: {
      kind: 'string',
      value: 'DIR',
      help: 'an offline mirror holding v<release>/swagger.json (also under kubernetes/)',
    },
    spec: { kind: 'string', value: 'FILE', help: "the release's swagger.json or per-group OpenAPI v3 document" },
    'spec-dir': {
      kind: 'string',
      value: 'DIR',
      help: 'the spec directory with releases.json and openapi/ (default: spec/)',
    },
    out: { kind: 'string', value: 'DIR', help: 'the output directory, replaced as a whole (default: generated/)' },
    'golden-dir': {
      kind: 'string',
      value: 'DIR',
      help: "where the release's golden tables go (default: test/golden/ for the project's own spec/; none for another --spec-dir)",
    },
    'package-changelog': {
      kind: 'string',
      value: 'FILE',
      help: "the package's own changelog, which gets an entry when the version moves (default: templates/k8s-lease-client/PACKAGE_CHANGELOG.md for the project's own spec/; none for another --spec-dir)",
    },
    'no-generate': {
      kind: 'boolean',
      help: 'write spec/ only; the packages are still generated in a dry run to check the document',
    },
  },
} as const;

await runCli(async (argv) => {
  const parsed = parseCommandLine(argv, COMMAND);
  if (parsed.help) return void process.stdout.write(parsed.usage);
  const { flags } = parsed;
  if (flags.release === undefined) throw usageError(usageText(COMMAND).split('\n')[0]!);
  checkRelease(flags.release);
  if (flags.from !== undefined && flags.spec !== undefined)
    throw usageError('give either --from DIR or --spec FILE, not both');
  const specDir = resolve(flags['spec-dir'] ?? DEFAULT_SPEC_DIR);
  // The golden tables belong to the project's own spec/: a scratch spec directory must not rewrite them.
  const ownSpec = specDir === DEFAULT_SPEC_DIR;
  const goldenDir =
    flags['golden-dir'] !== undefined ? resolve(flags['golden-dir']) : ownSpec ? DEFAULT_GOLDEN_DIR : undefined;
  const packageChangelog =
    flags['package-changelog'] !== undefined
      ? resolve(flags['package-changelog'])
      : ownSpec
        ? packageChangelogPath(TEMPLATES_DIR)
        : undefined;
  const result = await specUpdate({
    release: flags.release,
    ...(flags.from !== undefined ? { from: resolve(flags.from) } : {}),
    ...(flags.spec !== undefined ? { spec: resolve(flags.spec) } : {}),
    specDir,
    ...(goldenDir !== undefined ? { goldenDir } : {}),
    ...(packageChangelog !== undefined ? { packageChangelog } : {}),
    outDir: resolve(flags.out ?? DEFAULT_OUT_DIR),
    generate: flags['no-generate'] !== true,
  });
  console.log(
    `${result.release}: ${result.changed ? 'updated' : 'unchanged'} from ${result.source} (${result.contentHash}); API ${result.summary}`,
  );
  if (result.versionBumped)
    console.log(
      `packages: version ${result.packageVersion}${packageChangelog !== undefined ? `, entry added to ${displayPath(packageChangelog)}` : ''}`,
    );
  if (result.golden.length > 0) console.log(`golden tables: ${result.golden.join(', ')} (review with git diff)`);
});
