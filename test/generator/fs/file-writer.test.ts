import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFileWriter } from '../../../generator/fs/file-writer.js';
import { tempDir } from '../../helpers/cli.js';

describe('the file writer thread', () => {
  it('writes text and bytes, making directories as needed, and a later write of a path wins', async () => {
    const dir = tempDir('lease-writer-');
    const writer = startFileWriter();
    try {
      writer.write(join(dir, 'a/b/c.txt'), 'first');
      writer.write(join(dir, 'a/b/c.txt'), 'second');
      writer.write(join(dir, 'bytes.bin'), new Uint8Array([0, 255, 10]));
      await writer.flush();
      expect(readFileSync(join(dir, 'a/b/c.txt'), 'utf8')).toBe('second');
      expect([...readFileSync(join(dir, 'bytes.bin'))]).toEqual([0, 255, 10]);
    } finally {
      await writer.close();
    }
  });

  it('flush rejects with the first failure and its errno code; files after it are not written', async () => {
    const dir = tempDir('lease-writer-fail-');
    writeFileSync(join(dir, 'file'), 'x');
    const writer = startFileWriter();
    try {
      writer.write(join(dir, 'before.txt'), 'ok');
      // A directory cannot be made below a regular file.
      writer.write(join(dir, 'file/below.txt'), 'no');
      writer.write(join(dir, 'after.txt'), 'dropped');
      const failure = await writer.flush().then(
        () => undefined,
        (cause: unknown) => cause,
      );
      expect(failure).toBeInstanceOf(Error);
      // mkdir -p meets the file where a directory should be (Node's mkdirSync recursive: EEXIST, naming that path).
      expect((failure as NodeJS.ErrnoException).code).toBe('EEXIST');
      expect((failure as Error).message).toContain(join(dir, 'file'));
      expect(readFileSync(join(dir, 'before.txt'), 'utf8')).toBe('ok');
      expect(() => readFileSync(join(dir, 'after.txt'))).toThrow();
    } finally {
      await writer.close();
    }
  });

  it('after close, flush rejects instead of waiting for a thread that is gone', async () => {
    const writer = startFileWriter();
    await writer.close();
    await expect(writer.flush()).rejects.toThrow('the file writer thread stopped');
  });
});
