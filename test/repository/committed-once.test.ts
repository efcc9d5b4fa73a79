// Nothing is committed twice: generated/ commits what the generator emits, and the verbatim copies it makes
// (hand-written sources from templates/<package>/src, LICENSE, templates/package-tsconfig.json, the client's PACKAGE_CHANGELOG.md, the server's
// OpenAPI documents from spec/) are ignored build output. Reads generated/ as `npm run generate` left it.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesBelow } from '../helpers/files-below.js';
import { PROJECT_ROOT } from '../helpers/project.js';

const COPY_HEADER =
  /^\/\/ Copied by lease-api-generator from (\S+)\. DO NOT EDIT: edit that file and run `npm run generate`\.\n/;

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: PROJECT_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** Every file below generated/ on disk except built output (dist/) and installed packages, relative to the project. */
function generatedFiles(): string[] {
  return filesBelow(join(PROJECT_ROOT, 'generated'), new Set(['dist', 'node_modules'])).map((path) =>
    relative(PROJECT_ROOT, path).split('\\').join('/'),
  );
}

function ignoredOf(paths: readonly string[]): Set<string> {
  // check-ignore exits 1 when none is ignored; stdin keeps the argument list short.
  try {
    const out = execFileSync('git', ['check-ignore', '--no-index', '--stdin'], {
      cwd: PROJECT_ROOT,
      input: paths.join('\n'),
      encoding: 'utf8',
    });
    return new Set(out.split('\n').filter(Boolean));
  } catch (error) {
    const stdout = (error as { stdout?: string }).stdout ?? '';
    return new Set(stdout.split('\n').filter(Boolean));
  }
}

/** What an ignored file was copied from (after its header, for a source), or undefined when it is no copy. */
function sourceOf(path: string, text: string): string | undefined {
  const body = text.startsWith('#!') ? text.slice(text.indexOf('\n') + 1) : text;
  const header = COPY_HEADER.exec(body);
  if (header !== null) return header[1];
  if (path.endsWith('/LICENSE')) return 'LICENSE';
  if (path.endsWith('/tsconfig.json')) return 'templates/package-tsconfig.json';
  if (path.endsWith('/PACKAGE_CHANGELOG.md')) return 'templates/k8s-lease-client/PACKAGE_CHANGELOG.md';
  const document = /\/openapi\/(v[^/]+\.json)$/.exec(path);
  return document === null ? undefined : `spec/openapi/${document[1]}`;
}

function withoutHeader(text: string): string {
  if (!text.startsWith('#!')) return text.replace(COPY_HEADER, '');
  const lineEnd = text.indexOf('\n') + 1;
  return text.slice(0, lineEnd) + text.slice(lineEnd).replace(COPY_HEADER, '');
}

/** Every committed file, read once for all the checks below. */
const COMMITTED: readonly string[] = git('ls-files', '-z').split('\0').filter(Boolean);

describe('generated/ commits only what the generator emits', () => {
  const files = generatedFiles();
  const committed = new Set(COMMITTED);
  const tracked = new Set(COMMITTED.filter((path) => path.startsWith('generated/')));
  const ignored = ignoredOf(files);

  it('finds the generated packages (run npm run generate first)', () => {
    expect(files.some((f) => f.startsWith('generated/k8s-lease-api-server/src/'))).toBe(true);
    expect(files.some((f) => f.startsWith('generated/k8s-lease-client/src/runtime/'))).toBe(true);
  });

  it('every file the generator wrote is either committed or ignored, never both or neither', () => {
    const neither = files.filter((f) => !tracked.has(f) && !ignored.has(f));
    const both = files.filter((f) => tracked.has(f) && ignored.has(f));
    expect(neither, 'neither committed nor ignored').toEqual([]);
    expect(both, 'committed although .gitignore ignores it').toEqual([]);
  });

  it('every ignored file is a verbatim copy of one committed file (its header names it)', () => {
    for (const path of files.filter((f) => ignored.has(f))) {
      const text = readFileSync(join(PROJECT_ROOT, path), 'utf8');
      const source = sourceOf(path, text);
      expect(source, `${path} is ignored but is no copy`).toBeDefined();
      expect(committed.has(source!), `${path}: its source ${source} is not committed`).toBe(true);
      const original = readFileSync(join(PROJECT_ROOT, source!), 'utf8');
      expect(withoutHeader(text) === original, `${path} differs from ${source}: run npm run generate`).toBe(true);
    }
  });

  it('no committed file under generated/ is a copy', () => {
    for (const path of tracked)
      expect(COPY_HEADER.test(readFileSync(join(PROJECT_ROOT, path), 'utf8')), `${path} is a copy`).toBe(false);
  });
});

describe('no two committed files are byte-equal', () => {
  it('anywhere in the repository', () => {
    const first = new Map<string, string>();
    const twice: string[] = [];
    for (const path of COMMITTED) {
      const hash = createHash('sha256')
        .update(readFileSync(join(PROJECT_ROOT, path)))
        .digest('hex');
      const earlier = first.get(hash);
      if (earlier === undefined) first.set(hash, path);
      else twice.push(`${path} = ${earlier}`);
    }
    expect(twice).toEqual([]);
  });
});

describe('a hand-written function has one definition in the repository', () => {
  // `git grep -c` over the TypeScript sources: the reference in docs/api repeats signatures, not definitions.
  it.each(['startLeaseApiServer', 'createClient', 'kubeconfigClientOptions', 'createInformer', 'createLeaderElector'])(
    '%s',
    (name) => {
      const out = git('grep', '-c', '-E', `function ${name}\\b`, '--', '*.ts');
      expect(out.trim().split('\n')).toHaveLength(1);
      expect(out.trim()).toMatch(/^templates\/k8s-lease-[a-z-]+\/src\/.+\.ts:1$/);
    },
  );
});
