// Command-line parsing for `serve`, kept apart from process handling so it is testable on its own.
import type { Result } from './result.js';
import { err, ok } from './result.js';

export interface ServeArgs {
  port: number;
  host: string | undefined;
  release: string | undefined;
  openapi: string | undefined;
  token: string | undefined;
  forbiddenTokens: string[];
  tls: boolean;
  clientCertificates: boolean;
  kubeconfig: string | undefined;
  historyWindow: number | undefined;
  bookmarkIntervalMs: number | undefined;
}

export type Command = { kind: 'help' } | { kind: 'serve'; args: ServeArgs };

export const USAGE = `Usage: lease-api-server serve [options]

Starts a Kubernetes Lease API (coordination.k8s.io/v1) server for tests.

Options:
  --port N                 port to listen on (default 8080; 0 picks a free one)
  --host HOST              address to bind (default 127.0.0.1)
  --release X.Y.Z          Kubernetes release reported by /version (default 1.35.0)
  --openapi FILE           OpenAPI v3 document for coordination.k8s.io/v1 of that release
  --token T                require this bearer token
  --forbidden-token T      a token that authenticates but may not touch Leases (repeatable)
  --tls                    serve HTTPS with a generated CA
  --client-certs           with --tls, also require client certificates
  --kubeconfig FILE        write a kubeconfig for kubectl to FILE
  --history N              events of history kept for watch resume (default 10000)
  --bookmark-interval MS   interval of watch BOOKMARK events (default 60000)
  -h, --help               show this help
`;

const VALUE_FLAGS = new Set(['--port', '--host', '--release', '--openapi', '--token', '--forbidden-token', '--kubeconfig', '--history', '--bookmark-interval']);

function integer(flag: string, value: string): Result<number, string> {
  return /^\d+$/.test(value) ? ok(Number(value)) : err(`${flag} expects a non-negative integer, got ${JSON.stringify(value)}`);
}

export function parseCommand(argv: string[]): Result<Command, string> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') return ok({ kind: 'help' });
  if (command !== 'serve') return err(`unknown command ${JSON.stringify(command)}`);
  const args: ServeArgs = {
    port: 8080,
    host: undefined,
    release: undefined,
    openapi: undefined,
    token: undefined,
    forbiddenTokens: [],
    tls: false,
    clientCertificates: false,
    kubeconfig: undefined,
    historyWindow: undefined,
    bookmarkIntervalMs: undefined,
  };
  for (let i = 0; i < rest.length; i++) {
    const raw = rest[i] ?? '';
    const eq = raw.indexOf('=');
    const flag = raw.startsWith('--') && eq > 0 ? raw.slice(0, eq) : raw;
    if (flag === '-h' || flag === '--help') return ok({ kind: 'help' });
    if (flag === '--tls') {
      args.tls = true;
      continue;
    }
    if (flag === '--client-certs') {
      args.tls = true;
      args.clientCertificates = true;
      continue;
    }
    if (!VALUE_FLAGS.has(flag)) return err(`unknown flag ${JSON.stringify(raw)}`);
    const value = eq > 0 && raw.startsWith('--') ? raw.slice(eq + 1) : rest[++i];
    if (value === undefined) return err(`${flag} needs a value`);
    switch (flag) {
      case '--port': {
        const port = integer(flag, value);
        if (!port.ok) return port;
        args.port = port.value;
        break;
      }
      case '--history': {
        const history = integer(flag, value);
        if (!history.ok) return history;
        args.historyWindow = history.value;
        break;
      }
      case '--bookmark-interval': {
        const interval = integer(flag, value);
        if (!interval.ok) return interval;
        args.bookmarkIntervalMs = interval.value;
        break;
      }
      case '--host':
        args.host = value;
        break;
      case '--release':
        args.release = value;
        break;
      case '--openapi':
        args.openapi = value;
        break;
      case '--token':
        args.token = value;
        break;
      case '--forbidden-token':
        args.forbiddenTokens.push(value);
        break;
      case '--kubeconfig':
        args.kubeconfig = value;
        break;
    }
  }
  return ok({ kind: 'serve', args });
}
