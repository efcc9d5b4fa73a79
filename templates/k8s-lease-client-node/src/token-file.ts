// Bearer tokens read from a file that is rotated under us (kubelet's projected service-account token, tokenFile).
import { readFile, stat } from 'node:fs/promises';
import { errorCode, KubeconfigError } from './errors.js';

const MAX_TOKEN_BYTES = 1024 * 1024;

/**
 * A token provider for createClient that re-reads `path` when it changed. client-go's
 * NewCachedFileTokenSource re-reads once a minute; a stat per request costs a syscall and picks up a
 * rotation at once (kubelet swaps the file atomically, so the identity of the stat changes).
 * As client-go, a read that fails after a success keeps the last token, and an empty file is an error.
 */
export function fileTokenProvider(path: string): () => Promise<string> {
  let cached: { key: string; token: string } | undefined;
  return async () => {
    try {
      const info = await stat(path);
      const key = `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
      if (cached?.key === key) return cached.token;
      // Tokens are a few KiB; a path pointing at something huge must not be read into memory.
      if (!info.isFile() || info.size > MAX_TOKEN_BYTES)
        throw new KubeconfigError(
          `${path}: not a token file (not a regular file of at most ${MAX_TOKEN_BYTES} bytes)`,
          path,
        );
      const token = (await readFile(path, 'utf8')).trim();
      if (token === '') throw new KubeconfigError(`${path}: token file is empty`, path);
      cached = { key, token };
      return token;
    } catch (cause) {
      if (cached) return cached.token;
      if (cause instanceof KubeconfigError) throw cause;
      throw new KubeconfigError(`${path}: cannot read token file (${errorCode(cause) ?? 'unknown error'})`, path, {
        cause,
      });
    }
  };
}
