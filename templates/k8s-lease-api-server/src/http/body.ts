// Request bodies are small JSON/YAML documents; the real server caps them at 3 MiB.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { StatusError } from '../status.js';
import { requestEntityTooLarge } from '../status.js';

export const MAX_BODY_BYTES: number = 3 * 1024 * 1024;

/** rest.go limitedReadBody's refusal of a body over `limit` bytes. */
export function bodyTooLarge(limit: number): StatusError {
  return requestEntityTooLarge(`limit is ${limit}`);
}

/** The declared Content-Length, undefined for a chunked body (Node's parser has already refused a malformed one). */
export function declaredLength(req: IncomingMessage): number | undefined {
  const header = req.headers['content-length'];
  return header === undefined ? undefined : Number(header);
}

/** How long a connection with a refused body stays half-closed before it is destroyed (Go's rstAvoidanceDelay). */
const DISCARD_MS = 500;

/**
 * Reads the body's bytes, answering 413 as soon as it passes `limit` rather than at its end, so an endless
 * body neither holds memory nor keeps the request waiting; a body whose Content-Length already says it is
 * larger is refused before a byte of it is read (upstream's limitedReadBody reads up to the limit first: the
 * answer is the same, only sooner). Like Go's http.MaxBytesReader under kube-apiserver, the connection is then
 * closed after the reply: half-closed once the reply is flushed, what the client still sends discarded for a
 * moment (so it can read the 413 instead of a reset), then destroyed.
 */
export function readBodyBytes(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number = MAX_BODY_BYTES,
): Promise<Result<Buffer, StatusError>> {
  if ((declaredLength(req) ?? 0) > limit) {
    closeAfterReply(req, res);
    return Promise.resolve(err(bodyTooLarge(limit)));
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      // Nothing more of it is read: the rest waits unread in the kernel until the connection is closed.
      req.pause();
      chunks.length = 0;
      closeAfterReply(req, res);
      resolve(err(bodyTooLarge(limit)));
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

/**
 * Go's net/http answers a request whose body it will not finish reading with `Connection: close`
 * (server.go: closeAfterReply), so a keep-alive client does not send its next request on a connection
 * about to close. Node also reads that header as "close after this reply", but would close the socket
 * the moment the reply is flushed, while the client may still be sending: the kernel then resets the
 * connection and the client can lose the 413. So this connection closes as Go's closeWriteAndWait
 * does instead: half-closed once the reply is flushed, left for rstAvoidanceDelay so the client can read
 * the reply, then destroyed. Like Go, it reads none of what the client still sends: a refused flood of
 * large bodies costs no more than its headers.
 */
export function closeAfterReply(req: IncomingMessage, res: ServerResponse): void {
  const socket = req.socket;
  if (!res.headersSent) res.setHeader('Connection', 'close');
  socket.destroySoon = (): void => {
    socket.end();
    // Node's server has just resumed an unread body to drain it (resOnFinish: req._dump), which resumes the
    // socket on the next tick; pausing after that stops reading for good.
    setImmediate(() => socket.pause());
    setTimeout(() => socket.destroy(), DISCARD_MS).unref();
  };
}
