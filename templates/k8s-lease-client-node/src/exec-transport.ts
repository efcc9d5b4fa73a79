// The connection pool of a user with an exec plugin: the plugin may return a client certificate (and rotate it).
import type { ExecCredentialSource } from './exec/index.js';
import { nodeFetch } from './fetch.js';
import type { NodeFetch, NodeFetchOptions } from './fetch.js';
import { redactable } from './redact.js';

/**
 * A pool per certificate the plugin hands out: built lazily on the first request, replaced (the old one
 * closed once its requests finish) when the plugin returns another certificate, as client-go's exec
 * authenticator swaps its TLS certificate on rotation.
 */
export function execTransport(options: NodeFetchOptions, source: ExecCredentialSource): NodeFetch {
  let current: { pem: string; transport: NodeFetch } | undefined;
  let closed = false;
  const transportFor = async (): Promise<NodeFetch> => {
    const pair = await source.clientCertificate();
    const pem = pair ? pair.cert + pair.key : '';
    if (current?.pem === pem) return current.transport;
    if (closed) throw new TypeError('the client configuration was closed');
    const previous = current;
    const tls = pair ? { ...options.tls, cert: pair.cert, key: pair.key } : options.tls;
    current = { pem, transport: nodeFetch({ ...options, tls }) };
    void previous?.transport.close();
    return current.transport;
  };
  const send: typeof fetch = async (input, init) => (await transportFor()).fetch(input, init);
  const close = async (): Promise<void> => {
    closed = true;
    await current?.transport.close();
  };
  return redactable({ fetch: send, close });
}
