// Request bodies are small JSON/YAML documents; the real server caps them at 3 MiB.
import type { IncomingMessage } from 'node:http';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { StatusError } from '../status.js';

export const MAX_BODY_BYTES: number = 3 * 1024 * 1024;

export function readBody(req: IncomingMessage): Promise<Result<string, StatusError>> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (tooLarge) resolve(err({ code: 413, reason: 'RequestEntityTooLarge', message: 'Request entity too large: limit is 3145728' }));
      else resolve(ok(Buffer.concat(chunks).toString('utf8')));
    });
    req.on('error', () => resolve(err({ code: 400, reason: 'BadRequest', message: 'error reading request body' })));
  });
}
