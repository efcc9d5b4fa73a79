// Writes an auth-provider's refreshed config back into the kubeconfig file that defines the user, as kubectl's
// persister does (client-go tools/clientcmd/config.go PersisterForUser → ModifyConfig: the user is written to its
// LocationOfOrigin). Unlike ModifyConfig, which re-serialises the whole file, only the changed keys are touched,
// so comments and the order of everything else survive.
import { chmod, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { isMap, isSeq, parseDocument } from 'yaml';
import type { YAMLMap } from 'yaml';
import { errorCode } from './errors.js';

/**
 * Sets `users[name=<user>].user.auth-provider.config.<key>` for each entry of `changes` in `file`, replacing the
 * file atomically (written aside in the same directory with the same mode, then renamed over it). Resolves with a
 * one-line reason when it could not, never the file's content.
 */
export async function persistAuthProviderConfig(
  file: string,
  userName: string,
  changes: ReadonlyMap<string, string>,
): Promise<string | undefined> {
  let text: string;
  let mode: number;
  try {
    mode = (await stat(file)).mode & 0o777;
    text = await readFile(file, 'utf8');
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
  const aside = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    await writeFile(aside, doc.toString({ lineWidth: 0 }), { mode, flag: 'wx' });
    await chmod(aside, mode);
    await rename(aside, file);
  } catch (cause) {
    await rm(aside, { force: true }).catch(() => undefined);
    return `cannot write ${file} (${errorCode(cause) ?? 'unknown error'})`;
  }
  return undefined;
}
