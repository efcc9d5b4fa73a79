// Maintainer command: rebuilds test/fixtures/upstream from a local mirror of
// upstream documents, so that the tests run on any clone without the
// 3–4 MB whole-API documents. Usage:
//   npm run fixtures:update -- --from DIR [--spec-dir spec] [--out test/fixtures/upstream]
// DIR has the layout `spec:update --from` reads (kubernetes/v<release>/swagger.json …).
import { readdir, readFile } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import { DEFAULT_SPEC_DIR, LEASE_TARGET, PROJECT_ROOT } from '../config.js';
import { GeneratorError } from '../errors.js';
import { replaceDirectory } from '../fs/atomic-output.js';
import { findInMirror } from '../load/locate-upstream.js';
import { normalizeUpstreamDocument } from '../load/normalize-document.js';
import { parseUpstreamDocument, readUpstreamDocument } from '../load/read-document.js';
import { upstreamFixture } from '../load/upstream-fixture.js';
import { readManifest } from '../manifest/manifest.js';
import { parseCommandLine, usageText } from './flags.js';
import { runCli, usageError } from './run-cli.js';
import { openApiV3FileName } from '../shared/target.js';

const V3_SNAPSHOTS = 'kubernetes-v3-snapshots';
const V3_FILE = openApiV3FileName(LEASE_TARGET);

const COMMAND = {
  name: 'fixtures:update',
  synopsis: '--from DIR [--spec-dir DIR] [--out DIR]',
  summary:
    "Rebuilds test/fixtures/upstream from an offline mirror: each manifest release's swagger.json cut down to coordination.k8s.io/v1, plus the per-group OpenAPI v3 snapshots.",
  options: {
    from: { kind: 'string', value: 'DIR', help: 'the offline mirror, in the layout spec:update --from reads' },
    'spec-dir': {
      kind: 'string',
      value: 'DIR',
      help: 'the spec directory whose releases.json lists the releases (default: spec/)',
    },
    out: {
      kind: 'string',
      value: 'DIR',
      help: 'the fixtures directory, replaced as a whole (default: test/fixtures/upstream)',
    },
  },
} as const;

await runCli(async (argv) => {
  const parsed = parseCommandLine(argv, COMMAND);
  if (parsed.help) return void process.stdout.write(parsed.usage);
  const { flags } = parsed;
  if (flags.from === undefined) throw usageError(usageText(COMMAND).split('\n')[0]!);
  const from = resolve(flags.from);
  const out = resolve(flags.out ?? join(PROJECT_ROOT, 'test', 'fixtures', 'upstream'));
  const manifest = await readManifest(resolve(flags['spec-dir'] ?? DEFAULT_SPEC_DIR));

  const files = new Map<string, string>();
  for (const { release, contentHash } of manifest.releases) {
    const source = await findInMirror(from, release, LEASE_TARGET);
    const upstream = await readUpstreamDocument(source);
    const target = join('kubernetes', `v${release}`, basename(source));
    const text = `${JSON.stringify(upstreamFixture(upstream, LEASE_TARGET.group), null, 2)}\n`;
    // The fixture stands in for upstream only if ingest cannot tell them apart.
    const [whole, cut] = await Promise.all([
      normalizeUpstreamDocument(upstream, release, LEASE_TARGET),
      normalizeUpstreamDocument(parseUpstreamDocument(target, text), release, LEASE_TARGET),
    ]);
    if (cut.contentHash !== whole.contentHash) {
      throw new GeneratorError(
        'hash-mismatch',
        `the fixture ingests to ${cut.contentHash}, the whole document to ${whole.contentHash}`,
        { file: source },
      );
    }
    files.set(target, text);
    const note =
      whole.contentHash === contentHash
        ? ''
        : `  (spec/releases.json records ${contentHash}: run spec:update for ${release})`;
    console.log(`${release.padEnd(8)} ${target}  ${Math.round(text.length / 1024)} KB  ${whole.contentHash}${note}`);
  }

  // The per-group OpenAPI v3 snapshots are already small: copied byte for byte.
  for (const snapshot of await v3Snapshots(join(from, V3_SNAPSHOTS))) {
    const target = join(V3_SNAPSHOTS, relative(join(from, V3_SNAPSHOTS), snapshot));
    files.set(target, await readFile(snapshot, 'utf8'));
    console.log(`copied   ${target}`);
  }

  await replaceDirectory(out, files);
  console.log(`wrote ${files.size} files to ${relative(process.cwd(), out) || '.'}`);
});

async function v3Snapshots(dir: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(dir, { recursive: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => basename(entry) === V3_FILE)
    .sort()
    .map((entry) => join(dir, entry));
}
