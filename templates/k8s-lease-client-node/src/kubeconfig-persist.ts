// Writes an auth-provider's refreshed config back into the kubeconfig file that defines the user, as kubectl's
// persister does (client-go tools/clientcmd/config.go PersisterForUser → ModifyConfig: the user is written to its
// LocationOfOrigin, under the `<file>.lock` that loader.go's lockFile takes). Unlike ModifyConfig, which re-serialises
// the whole file, only the changed keys are touched, so comments and the order of everything else survive.
import { chmod, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isMap, isSeq, parseDocument } from 'yaml';
import type { YAMLMap } from 'yaml';
import { errorCode } from './errors.js';
import { withFileLock } from './kubeconfig-lock.js';

/**
 * Sets `users[name=<user>].user.auth-provider.config.<key>` for each entry of `changes` in `file`. Under the file's
 * lock the file is read again and only this user's keys change, so a concurrent writer's other users survive. A
 * symlinked file is written through: its target is replaced atomically (written aside in the target's directory with
 * the target's mode, then renamed over it) and the link stays. Resolves with a one-line reason when it could not,
 * never the file's content.
 */
export function persistAuthProviderConfig(
  file: string,
  userName: string,
  changes: ReadonlyMap<string, string>,
): Promise<string | undefined> {
  return withFileLock(file, () => rewrite(file, userName, changes));
}

async function rewrite(
  file: string,
  userName: string,
  changes: ReadonlyMap<string, string>,
): Promise<string | undefined> {
  let target: string;
  let text: string;
  let mode: number;
  try {
    // WriteToFile's os.WriteFile opens the named path, which follows a symlink: the link's target is what changes.
    target = await realpath(file);
    mode = (await stat(target)).mode & 0o777;
    text = await readFile(target, 'utf8');
  } catch (cause) {
    return `cannot read ${file} (${errorCode(cause) ?? 'unknown error'})`;
  }
  const doc = parseDocument(text, { version: '1.1', keepSourceTokens: false });
  if (doc.errors.length > 0) return `${file} is no longer valid YAML`;
  const users = doc.get('users');
  const entry = isSeq(users)
    ? users.items.find((item): item is YAMLMap => isMap(item) && item.get('name') === userName)
    : undefined;
  const config = entry?.getIn(['user', 'auth-provider', 'config']);
  if (!isMap(config)) return `${file} no longer holds user ${JSON.stringify(userName)} with an auth-provider config`;
  for (const [key, value] of changes) config.set(key, value);
  // Beside the target, not the link: rename is atomic only within one file system.
  const aside = join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now()}.tmp`);
  try {
    await writeFile(aside, doc.toString({ lineWidth: 0 }), { mode, flag: 'wx' });
    await chmod(aside, mode);
    await rename(aside, target);
  } catch (cause) {
    await rm(aside, { force: true }).catch(() => undefined);
    return `cannot write ${file} (${errorCode(cause) ?? 'unknown error'})`;
  }
  return undefined;
}
