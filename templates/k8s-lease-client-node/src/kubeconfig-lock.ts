// The lock kubectl takes around a kubeconfig write (client-go tools/clientcmd/loader.go lockFile / unlockFile, taken by
// config.go ModifyConfig): `<file>.lock`, created with O_CREATE|O_EXCL and removed afterwards. Sharing kubectl's lock
// name is what keeps this client and a concurrent kubectl from writing the same file at once.
import { open, rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorCode } from './errors.js';

/**
 * How long a writer waits for a held lock. client-go does not wait (a held lock fails ModifyConfig at once); here the
 * other writer is usually this client's sibling process mid-write, which takes milliseconds, and failing would lose
 * tokens the issuer has already rotated.
 */
export const LOCK_WAIT_MS = 5_000;
/** The first pause between attempts, doubled up to MAX_PAUSE_MS; jittered so two waiters do not retry in step. */
const FIRST_PAUSE_MS = 2;
const MAX_PAUSE_MS = 100;

/**
 * Runs `work` holding `<file>.lock`, which is removed afterwards whatever `work` did. A lock still held after
 * `waitMs` resolves with a one-line reason instead, naming the lock: like client-go, a lock left by a process that
 * died is not broken (its age cannot tell it from a slow writer), so the reason says to remove it.
 */
export async function withFileLock(
  file: string,
  work: () => Promise<string | undefined>,
  waitMs: number = LOCK_WAIT_MS,
): Promise<string | undefined> {
  const lock = `${file}.lock`;
  const deadline = Date.now() + waitMs;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
    const reason = await tryLock(lock);
    if (reason === undefined) break;
    if (reason !== 'EEXIST') return `cannot create ${lock} (${reason})`;
    if (Date.now() >= deadline)
      return `${lock} is still held after ${waitMs} ms (another kubectl or client is writing ${file}; remove the lock if none is)`;
    await sleep(pause / 2 + Math.random() * pause);
  }
  try {
    return await work();
  } finally {
    // unlockFile's error is dropped by ModifyConfig's defer too: the write itself has succeeded or reported.
    await rm(lock, { force: true }).catch(() => undefined);
  }
}

/** undefined once the lock is ours, else the error code (EEXIST: someone holds it). */
async function tryLock(lock: string): Promise<string | undefined> {
  try {
    const handle = await open(lock, 'wx', 0o600);
    await handle.close();
    return undefined;
  } catch (cause) {
    return errorCode(cause) ?? 'unknown error';
  }
}
