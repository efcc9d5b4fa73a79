// Request bodies are small JSON/YAML documents; the real server caps them at 3 MiB.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { StatusError } from '../status.js';

export const MAX_BODY_BYTES: number = 3 * 1024 * 1024;

const TOO_LARGE: StatusError = {
  code: 413,
  reason: 'RequestEntityTooLarge',
  message: 'Request entity too large: limit is 3145728',
};

/** How long the rest of a refused body is read and thrown away before the connection is closed (Go's rstAvoidanceDelay). */
const DISCARD_MS = 500;

/**
 * Reads the body's bytes, answering 413 as soon as it passes the limit rather than at its end, so an endless
 * body neither holds memory nor keeps the request waiting. Like Go's http.MaxBytesReader under kube-apiserver,
 * the connection is then closed after the reply: half-closed once the reply is flushed, what the client
 * still sends discarded for a moment (so it can read the 413 instead of a reset), then destroyed.
 */
export function readBodyBytes(req: IncomingMessage, res: ServerResponse): Promise<Result<Buffer, StatusError>> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      chunks.length = 0;
      closeAfterReply(req, res);
      resolve(err(TOO_LARGE));
    };
    req.on('data', onData);
    req.on('end', () => resolve(ok(Buffer.concat(chunks))));
    req.on('error', () => resolve(err({ code: 400, reason: 'BadRequest', message: 'error reading request body' })));
  });
}

/** The body as UTF-8 text (JSON and YAML), with readBodyBytes' limit. */
export async function readBody(req: IncomingMessage, res: ServerResponse): Promise<Result<string, StatusError>> {
  const bytes = await readBodyBytes(req, res);
  return bytes.ok ? ok(bytes.value.toString('utf8')) : bytes;
}

function closeAfterReply(req: IncomingMessage, res: ServerResponse): void {
  // Not res.shouldKeepAlive = false: Node would then destroy the socket right after the reply, while the
  // client is still sending, and the reset can reach the client before it reads the 413.
  res.once('finish', () => {
    req.resume();
    req.socket.end();
    setTimeout(() => req.socket.destroy(), DISCARD_MS).unref();
  });
}
