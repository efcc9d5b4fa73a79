// kubectl's kubeconfig lock (client-go tools/clientcmd/loader.go lockFile / unlockFile): `<file>.lock` made with
// O_CREATE|O_EXCL and removed afterwards. client-go never waits for it; withFileLock waits a bounded time.
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withFileLock } from '../../templates/k8s-lease-client-node/src/kubeconfig-lock.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kubeconfig-lock-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('withFileLock', () => {
  it('holds <file>.lock while the work runs and removes it after', async () => {
    const file = join(dir, 'held-during-work');
    let seen: boolean | undefined;
    const reason = await withFileLock(file, async () => {
      seen = (await stat(`${file}.lock`)).isFile();
      return undefined;
    });
    expect([reason, seen]).toEqual([undefined, true]);
    expect(await readdir(dir)).not.toContain('held-during-work.lock');
  });

  it('runs one work at a time for one file', async () => {
    const file = join(dir, 'one-at-a-time');
    let inside = 0;
    let most = 0;
    const work = async (): Promise<undefined> => {
      most = Math.max(most, ++inside);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inside--;
      return undefined;
    };
    expect(await Promise.all([1, 2, 3, 4].map(() => withFileLock(file, work)))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(most).toBe(1);
  });

  it('a lock never released (a stale one is treated as held, as client-go does): a reason naming it, no work', async () => {
    const file = join(dir, 'stale');
    await writeFile(`${file}.lock`, '');
    let ran = false;
    const reason = await withFileLock(
      file,
      async () => {
        ran = true;
        return undefined;
      },
      100,
    );
    expect(reason).toBe(
      `${file}.lock is still held after 100 ms (another kubectl or client is writing ${file}; remove the lock if none is)`,
    );
    expect(ran).toBe(false);
    expect((await stat(`${file}.lock`)).isFile()).toBe(true); // someone else's lock is not ours to remove
  });

  it('a directory where the lock cannot be created: a reason with the code', async () => {
    const file = join(dir, 'missing-dir', 'config');
    expect(await withFileLock(file, async () => undefined)).toBe(`cannot create ${file}.lock (ENOENT)`);
  });

  it('the lock is removed when the work throws', async () => {
    const file = join(dir, 'throws');
    await expect(
      withFileLock(file, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(stat(`${file}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
