import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listPackageFolders } from '../../generator/fs/package-folders.js';
import { PROJECT_ROOT } from '../helpers/project.js';

/**
 * CONTRIBUTING.md's map ("to change X, open Y") and the paths the README and CONTRIBUTING.md name help only while
 * they point at something: a file moved or split must take its mentions along. Every repository path written as
 * code outside code blocks, and every relative link, must exist; `<pkg>` stands for each folder of templates/, and
 * a pattern with any other placeholder or a glob is checked up to its last folder before the first wildcard.
 */

const DOCS = ['README.md', 'CONTRIBUTING.md'] as const;
const MAP_HEADING = '## Where to change what';
const PACKAGE_PLACEHOLDER = '<pkg>';
/** Top-level folders on disk that are not part of the repository. */
const NOT_REPOSITORY = new Set(['node_modules', '.git', '.tmp', '.build']);

/** The shipped packages, one folder each in templates/: what `<pkg>` stands for. */
function packageNames(root: string): string[] {
  return listPackageFolders(join(root, 'templates')).map((folder) => folder.name);
}

/** The repository's top-level folders: a code span starting with one of them is a path, not a subpath or API group. */
function topLevelFolders(root: string): Set<string> {
  return new Set(
    readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !NOT_REPOSITORY.has(entry.name))
      .map((entry) => entry.name),
  );
}

/** Markdown without its fenced blocks: those hold commands and output, whose words are not references. */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
}

function codeSpans(text: string): string[] {
  return [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
}

/** Relative link targets, without their #fragment; web addresses and in-page anchors are not files. */
function linkTargets(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z]+:/.test(target) && !target.startsWith('#'))
    .map((target) => target.replace(/#.*$/, ''));
}

/** A code span that names a repository path: one word, starting with a top-level folder. */
function isRepositoryPath(span: string, folders: ReadonlySet<string>): boolean {
  return !/\s/.test(span) && span.includes('/') && folders.has(span.split('/')[0]!);
}

/**
 * What to look for on disk for a path as written: `<pkg>` once per package; a remaining placeholder or glob cuts the
 * path back to the folder before it, so `test/golden/v<release>.operations.md` checks `test/golden/`.
 */
function expand(path: string, packages: readonly string[]): string[] {
  const concrete = path.includes(PACKAGE_PLACEHOLDER)
    ? packages.map((name) => path.replaceAll(PACKAGE_PLACEHOLDER, name))
    : [path];
  return concrete.map((candidate) => {
    const wildcard = candidate.search(/[<*]/);
    return wildcard < 0 ? candidate : candidate.slice(0, candidate.lastIndexOf('/', wildcard) + 1);
  });
}

/** The paths `markdown` names (as code or as links) that do not exist below `root`, as written and as looked for. */
function missingPaths(markdown: string, root: string): string[] {
  const folders = topLevelFolders(root);
  const packages = packageNames(root);
  const text = prose(markdown);
  const named = new Set([...codeSpans(text).filter((span) => isRepositoryPath(span, folders)), ...linkTargets(text)]);
  return [...named].flatMap((path) =>
    expand(path, packages)
      .filter((candidate) => !existsSync(join(root, candidate)))
      .map((candidate) => (candidate === path ? path : `${path} (${candidate})`)),
  );
}

/** The map's rows as [what to change, the first code span of "open"]; a row without one keeps `undefined`. */
function mapRows(markdown: string): Array<readonly [string, string | undefined]> {
  const start = markdown.indexOf(`${MAP_HEADING}\n`);
  if (start < 0) return [];
  const section = markdown.slice(start + MAP_HEADING.length).split(/^## /m)[0]!;
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[-\s|]+\|$/.test(line))
    .slice(1) // the header row
    .map((line) => {
      const cells = line.split('|').slice(1, -1);
      return [cells[0]!.trim(), codeSpans(cells.at(-1) ?? '')[0]] as const;
    });
}

const read = (file: string): string => readFileSync(join(PROJECT_ROOT, file), 'utf8');

describe('the check finds what does not exist', () => {
  it.each([
    ['see `generator/no-such-stage/`', ['generator/no-such-stage/']],
    ['[a link](test/no-such-file.md#part)', ['test/no-such-file.md']],
    [
      '`templates/<pkg>/no-such.hbs`',
      packageNames(PROJECT_ROOT).map((name) => `templates/<pkg>/no-such.hbs (templates/${name}/no-such.hbs)`),
    ],
    ['`no-such-folder/v<release>.json`', []], // not a top-level folder: an API group, a subpath, a scratch name
    ['`test/no-such/v<release>.json`', ['test/no-such/v<release>.json (test/no-such/)']],
    ['```sh\nnpm run x -- --from generator/no-such\n```', []],
    ['`generator/load/` and [CHANGELOG](generated/k8s-lease-client/CHANGELOG.md)', []],
    ['`k8s-lease-client/v1.33` and `coordination.k8s.io/v1`', []],
  ] as const)('%j → %j', (markdown, missing) => {
    expect(missingPaths(markdown, PROJECT_ROOT)).toEqual(missing);
  });
});

describe('CONTRIBUTING.md maps each change to the place to open', () => {
  const rows = mapRows(read('CONTRIBUTING.md'));

  it('has a short map: 15 to 30 rows', () => {
    expect(rows.length).toBeGreaterThanOrEqual(15);
    expect(rows.length).toBeLessThanOrEqual(30);
  });

  it('names, in every row, a place that exists', () => {
    const packages = packageNames(PROJECT_ROOT);
    const broken = rows.flatMap(([change, place]) =>
      place === undefined
        ? [`${change}: no path`]
        : expand(place, packages)
            .filter((candidate) => !existsSync(join(PROJECT_ROOT, candidate)))
            .map((candidate) => `${change}: ${candidate}`),
    );
    expect(broken).toEqual([]);
  });
});

describe.each(DOCS)('every repository path %s names exists', (file) => {
  it('finds paths to check, and each exists', () => {
    const markdown = read(file);
    const folders = topLevelFolders(PROJECT_ROOT);
    // Not vacuous: the document names many places.
    expect(codeSpans(prose(markdown)).filter((span) => isRepositoryPath(span, folders)).length).toBeGreaterThan(10);
    expect(missingPaths(markdown, PROJECT_ROOT)).toEqual([]);
  });
});
