import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { openReplacement, replaceDirectory } from '../../../generator/fs/atomic-output.js';
import { tempDir } from '../../helpers/cli.js';

const FILES = new Map<string, string>([
  ['pkg/package.json', '{"name":"x"}\n'],
  ['pkg/src/index.ts', 'export {};\n'],
  ['pkg/dist/index.js', 'export {};\n'],
]);

/** Identity of a file on disk: a rewrite through staging and rename gives a new inode. */
function inode(path: string): number {
  return statSync(path).ino;
}

describe('writing the output directory', () => {
  it('regenerating the same content leaves the directory and its files as they were', async () => {
    const out = join(tempDir('lease-out-same-'), 'generated');
    await replaceDirectory(out, FILES);
    const before = [...FILES.keys()].map((f) => inode(join(out, f)));
    await replaceDirectory(out, new Map(FILES));
    expect([...FILES.keys()].map((f) => inode(join(out, f)))).toEqual(before);
  });

  it.each([
    ['a changed byte', (out: string) => writeFileSync(join(out, 'pkg/src/index.ts'), 'export {};\r\n')],
    ['a stray file', (out: string) => writeFileSync(join(out, 'pkg/stray.txt'), 'x')],
    ['an empty directory', (out: string) => mkdirSync(join(out, 'pkg/empty'))],
    ['a missing file', (out: string) => rmSync(join(out, 'pkg/dist/index.js'))],
    ['an emptied file', (out: string) => writeFileSync(join(out, 'pkg/dist/index.js'), '')],
  ])('replaces the whole directory when it differs by %s', async (_what, damage) => {
    const out = join(tempDir('lease-out-diff-'), 'generated');
    await replaceDirectory(out, FILES);
    damage(out);
    await replaceDirectory(out, FILES);
    for (const [file, content] of FILES) expect(readFileSync(join(out, file), 'utf8')).toBe(content);
    expect(existsSync(join(out, 'pkg/stray.txt'))).toBe(false);
    expect(existsSync(join(out, 'pkg/empty'))).toBe(false);
  });
});

describe('writing the output directory file by file (openReplacement)', () => {
  const staged = (parent: string): string[] => readdirSync(parent).filter((name) => name.includes('.staging-'));

  it('into a missing directory, writes each file to staging as it is added, and swaps it in on commit', async () => {
    const parent = tempDir('lease-out-stream-');
    const out = join(parent, 'generated');
    const replacement = await openReplacement(out);
    replacement.add('pkg/src/index.ts', 'export {};\n');
    await vi.waitFor(() => {
      const [dir] = staged(parent);
      expect(dir !== undefined && existsSync(join(parent, dir, 'pkg/src/index.ts'))).toBe(true);
    });
    expect(existsSync(out)).toBe(false);
    await replacement.commit(FILES);
    for (const [file, content] of FILES) expect(readFileSync(join(out, file), 'utf8')).toBe(content);
    expect(staged(parent)).toEqual([]);
  });

  it('a difference found after matching files were added still writes every file', async () => {
    const out = join(tempDir('lease-out-late-'), 'generated');
    await replaceDirectory(out, FILES);
    const changed = new Map(FILES).set('pkg/dist/index.js', 'export const x = 1;\n');
    const replacement = await openReplacement(out);
    for (const [file, content] of changed) replacement.add(file, content);
    await replacement.commit(changed);
    for (const [file, content] of changed) expect(readFileSync(join(out, file), 'utf8')).toBe(content);
  });

  it('abandoned after some files were staged, leaves the old directory as it was and no staging', async () => {
    const parent = tempDir('lease-out-abandon-');
    const out = join(parent, 'generated');
    await replaceDirectory(out, FILES);
    const before = inode(join(out, 'pkg/package.json'));
    const replacement = await openReplacement(out);
    replacement.add('pkg/package.json', '{"name":"y"}\n');
    replacement.add('pkg/src/index.ts', 'export {};\n');
    await replacement.abandon();
    expect(readFileSync(join(out, 'pkg/package.json'), 'utf8')).toBe('{"name":"x"}\n');
    expect(inode(join(out, 'pkg/package.json'))).toBe(before);
    expect(staged(parent)).toEqual([]);
  });
});
