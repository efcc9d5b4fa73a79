import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Names of the scratch directories a run makes carry its pid (`<prefix><pid>-<random>`), so that a later
 * run can tell a SIGKILLed run's leftovers from a concurrent run's work in progress.
 */
export function scratchPrefix(prefix: string, pid: number = process.pid): string {
  return `${prefix}${pid}-`;
}

/**
 * Removes what runs killed before they could clean up left in `dir`: entries named exactly
 * `<prefix><pid>-<6 characters>` (plus mkdtemp's `.old` sibling of a swap) whose pid is no longer running,
 * owned by this user. A live pid, even a reused one, keeps its entry: leaving a stale directory is harmless,
 * removing a running generation's staging is not. Failures are ignored: sweeping is housekeeping.
 */
export async function sweepLeftovers(dir: string, prefix: string): Promise<string[]> {
  const pattern = new RegExp(`^${escapeRegExp(prefix)}([1-9]\\d{0,9})-[A-Za-z0-9]{6}(?:\\.old)?$`);
  const names = await readdir(dir).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    const pid = pattern.exec(name)?.[1];
    if (pid === undefined || Number(pid) === process.pid || isRunning(Number(pid))) continue;
    const path = join(dir, name);
    const stats = await lstat(path).catch(() => undefined);
    if (stats === undefined || !stats.isDirectory() || (process.getuid !== undefined && stats.uid !== process.getuid()))
      continue;
    await rm(path, { recursive: true, force: true }).then(
      () => removed.push(name),
      () => undefined,
    );
  }
  return removed;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (cause) {
    // EPERM: it exists but belongs to someone else.
    return (cause as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
