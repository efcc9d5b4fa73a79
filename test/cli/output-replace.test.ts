import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replaceDirectory } from '../../generator/fs/atomicOutput.js';
import { tempDir } from '../helpers/cli.js';

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
