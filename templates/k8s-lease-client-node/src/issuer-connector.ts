// The connections of one OIDC refresh, dropped when the refresh is abandoned. undici's Agent.destroy() does not end a
// socket still in its TLS handshake, so an issuer that accepts the connection and never answers would keep it open
// until the connect timeout; this connector keeps hold of every socket it opens and destroys them on abort.
import { connect as netConnect, isIP } from 'node:net';
import type { Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { buildConnector } from 'undici';

/** An undici `connect` function for http: and https: (verified against `ca`, else Node's roots) that `signal` ends. */
export function abortableConnector(ca: string | undefined, signal: AbortSignal): buildConnector.connector {
  return (options, callback) => {
    const host = options.hostname.replace(/^\[(.*)\]$/, '$1');
    const secure = options.protocol === 'https:';
    const port = Number(options.port) || (secure ? 443 : 80);
    // SNI carries a host name only (RFC 6066 §3): none for an address.
    const servername = isIP(host) === 0 ? (options.servername ?? host) : undefined;
    const socket: Socket = secure
      ? tlsConnect({ host, port, ca, ALPNProtocols: ['http/1.1'], ...(servername ? { servername } : {}) })
      : netConnect({ host, port });
    let answered = false;
    const answer = (...args: [null, Socket] | [Error, null]): void => {
      if (answered) return;
      answered = true;
      callback(...args);
    };
    const drop = (): void => {
      socket.destroy(signal.reason instanceof Error ? signal.reason : new Error('the refresh was abandoned'));
    };
    if (signal.aborted) drop();
    else signal.addEventListener('abort', drop, { once: true });
    socket.once('close', () => signal.removeEventListener('abort', drop));
    socket.once(secure ? 'secureConnect' : 'connect', () => answer(null, socket));
    socket.once('error', (error) => answer(error, null));
  };
}
