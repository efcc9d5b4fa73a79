// A bearer token read from a file rotated under us. The rules are client-go's (transport/token_source.go):
// fileTokenSource.Token trims the file and refuses an empty one; cachingTokenSource.Token keeps the last token when
// a later read fails. Where client-go re-reads once a minute, this re-reads as soon as the file changed.
import { mkdtemp, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeconfigError } from '../../templates/k8s-lease-client-node/src/errors.js';
import { fileTokenProvider } from '../../templates/k8s-lease-client-node/src/token-file.js';
import { rejectionOf } from '../helpers/rejection.js';

let dir: string;
let seq = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'token-file-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function tokenFile(content: string): Promise<string> {
  const path = join(dir, `token-${++seq}`);
  await writeFile(path, content);
  return path;
}

/** Replaces the file atomically, as kubelet rotates a projected token. */
async function rotate(path: string, content: string): Promise<void> {
  const next = `${path}.next`;
  await writeFile(next, content);
  await rename(next, path);
}

describe('fileTokenProvider', () => {
  it('reads the token, surrounding whitespace trimmed (fileTokenSource)', async () => {
    expect(await fileTokenProvider(await tokenFile('  tok-1\n'))()).toBe('tok-1');
  });

  it('picks up a rotation at the next call', async () => {
    const path = await tokenFile('tok-1');
    const token = fileTokenProvider(path);
    expect(await token()).toBe('tok-1');
    await rotate(path, 'tok-2');
    expect(await token()).toBe('tok-2');
  });

  it('an empty file is an error naming the file (fileTokenSource: "read empty token from file")', async () => {
    const path = await tokenFile(' \n');
    const error = await rejectionOf(fileTokenProvider(path)());
    expect(error).toEqual(new KubeconfigError(`${path}: token file is empty`, path));
    expect((error as KubeconfigError).file).toBe(path);
  });

  it('a missing file is an error naming the file and the code, with the cause', async () => {
    const path = join(dir, 'missing');
    const error = await rejectionOf(fileTokenProvider(path)());
    expect(error).toBeInstanceOf(KubeconfigError);
    expect((error as Error).message).toBe(`${path}: cannot read token file (ENOENT)`);
    expect((error as Error).cause).toMatchObject({ code: 'ENOENT' });
  });

  it('a directory is not a token file', async () => {
    const error = await rejectionOf(fileTokenProvider(dir)());
    expect((error as Error).message).toBe(`${dir}: not a token file (not a regular file of at most 1048576 bytes)`);
  });

  it('a file over 1 MiB is refused without being read', async () => {
    const error = await rejectionOf(fileTokenProvider(await tokenFile('t'.repeat(1024 * 1024 + 1)))());
    expect((error as Error).message).toMatch(/: not a token file \(not a regular file of at most 1048576 bytes\)$/);
  });

  it('once a token was read, a failing read keeps the last token (cachingTokenSource)', async () => {
    const path = await tokenFile('tok-1');
    const token = fileTokenProvider(path);
    expect(await token()).toBe('tok-1');
    await unlink(path);
    expect(await token()).toBe('tok-1');
    await writeFile(path, '');
    expect(await token()).toBe('tok-1');
    await rotate(path, 'tok-3');
    expect(await token()).toBe('tok-3');
  });

  it('never puts the token in an error', async () => {
    const path = await tokenFile(`${'x'.repeat(1024 * 1024)}secret-token`);
    const error = await rejectionOf(fileTokenProvider(path)());
    expect(String(error)).not.toContain('secret-token');
  });
});
