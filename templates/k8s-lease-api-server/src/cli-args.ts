// Command-line parsing for `serve`, kept apart from process handling so it is testable on its own.
// Hostile or confused command lines end in one-line errors (exit 2) rather than a server that
// quietly does something else than asked.
import { compileCorsOrigins } from './http/cors.js';
import { isDnsLabel } from './namespaces/namespace-names.js';
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
  namespaces: string[];
  corsAllowedOrigins: string[];
  /** --feature-gates CoordinatedLeaderElection=true */
  coordinatedLeaderElection: boolean;
  /** --feature-gates WatchList=true|false; undefined: the release's default. */
  watchList: boolean | undefined;
}

export type Command = { kind: 'help' } | { kind: 'version' } | { kind: 'serve'; args: ServeArgs };

export const USAGE = `Usage: lease-api-server serve [options]
       lease-api-server --version

Starts a Kubernetes Lease API (coordination.k8s.io/v1) server for tests.

Options:
  --port N                 port to listen on, 0-65535 (default 8080; 0 picks a free one)
  --host HOST              address to bind (default 127.0.0.1)
  --release X.Y[.Z]        Kubernetes release to behave as and report by /version; must be a
                           packaged release (same minor), unless --openapi brings the document
  --openapi FILE           OpenAPI v3 document for coordination.k8s.io/v1 of that release
  --token T                require this bearer token
  --forbidden-token T      a token that authenticates but may not touch Leases (403); repeatable,
                           with or without --token (without it, other callers stay anonymous)
  --tls                    serve HTTPS with a generated CA
  --client-certs           with --tls: also accept client certificates signed by that CA (the
                           kubeconfig presents one); requests without one may still use --token
  --namespaces A,B         namespaces that exist from the start besides default, kube-system,
                           kube-public and kube-node-lease (repeatable); others can be created
                           with \`kubectl create namespace\`
  --cors-allowed-origins R,S
                           regular expressions of the Origins browsers may call from, as
                           kube-apiserver's flag (repeatable); each must pin the host's start
                           ('^' or '//') and end ('$' or ':'), e.g. '^http://localhost(:[0-9]+)?$'
  --kubeconfig FILE        write a kubeconfig for kubectl to FILE
  --feature-gates G=B      as kube-apiserver's (comma-separated); CoordinatedLeaderElection=true|false
                           (1.31+): serves LeaseCandidate and runs the leader-election controller;
                           WatchList=true|false: watches take sendInitialEvents (default: on in
                           1.32 and from 1.34, as each release's default)
  --history N              events of history kept for watch resume, at least 1 (default 10000)
  --bookmark-interval MS   interval of watch BOOKMARK events, at least 1 (default 60000)
  -h, --help               show this help
  --version                print the package version and the Kubernetes releases it serves

Each option but --forbidden-token, --namespaces and --cors-allowed-origins may be given once. Values may follow as the next
argument or after '='; a value that starts with '--' must use the '=' form.
Exit codes: 0 after a clean stop, 1 when the server cannot start, 2 for a bad command line.
`;

const BOOLEAN_FLAGS = new Set(['--tls', '--client-certs']);
const VALUE_FLAGS = new Set([
  '--port',
  '--host',
  '--release',
  '--openapi',
  '--token',
  '--forbidden-token',
  '--kubeconfig',
  '--history',
  '--bookmark-interval',
  '--namespaces',
  '--cors-allowed-origins',
  '--feature-gates',
]);
const REPEATABLE = new Set(['--forbidden-token', '--namespaces', '--cors-allowed-origins']);
const MAX_PORT = 65535;

function integer(flag: string, value: string, min: number, max: number): Result<number, string> {
  const n = /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
  return n >= min && n <= max
    ? ok(n)
    : err(`${flag} expects an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
}

function namespaceList(value: string): Result<string[], string> {
  const names = value.split(',').map((n) => n.trim());
  const bad = names.find((n) => !isDnsLabel(n));
  return bad === undefined
    ? ok(names)
    : err(`--namespaces: ${JSON.stringify(bad)} is not a valid namespace name (a lowercase RFC 1123 label)`);
}

function defaults(): ServeArgs {
  return {
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
    coordinatedLeaderElection: false,
    watchList: undefined,
    namespaces: [],
    corsAllowedOrigins: [],
  };
}

function applyValue(args: ServeArgs, flag: string, value: string): Result<void, string> {
  switch (flag) {
    case '--port': {
      const port = integer(flag, value, 0, MAX_PORT);
      if (!port.ok) return port;
      args.port = port.value;
      return ok(undefined);
    }
    case '--history': {
      const history = integer(flag, value, 1, 10_000_000);
      if (!history.ok) return history;
      args.historyWindow = history.value;
      return ok(undefined);
    }
    case '--bookmark-interval': {
      const interval = integer(flag, value, 1, 2_147_483_647);
      if (!interval.ok) return interval;
      args.bookmarkIntervalMs = interval.value;
      return ok(undefined);
    }
    case '--feature-gates': {
      for (const gate of value.split(',')) {
        // component-base's featureGate.Set reads the value with strconv.ParseBool, so 1, t, T, TRUE, True and
        // their false counterparts are accepted as well.
        const match = /^(CoordinatedLeaderElection|WatchList)=(1|t|T|TRUE|true|True|0|f|F|FALSE|false|False)$/.exec(
          gate.trim(),
        );
        if (match === null)
          return err(
            `--feature-gates: unrecognized feature gate: ${JSON.stringify(gate)} (only CoordinatedLeaderElection=true|false, WatchList=true|false)`,
          );
        const enabled = /^(1|t|T|TRUE|true|True)$/.test(match[2]!);
        if (match[1] === 'WatchList') args.watchList = enabled;
        else args.coordinatedLeaderElection = enabled;
      }
      return ok(undefined);
    }
    case '--namespaces': {
      const names = namespaceList(value);
      if (!names.ok) return names;
      args.namespaces.push(...names.value);
      return ok(undefined);
    }
    case '--cors-allowed-origins': {
      // pflag's StringSlice, as kube-apiserver reads the flag: comma-separated, repeatable.
      const patterns = value.split(',');
      const compiled = compileCorsOrigins(patterns);
      if (!compiled.ok) return err(compiled.error.replace(/^corsAllowedOrigins/, flag));
      args.corsAllowedOrigins.push(...patterns);
      return ok(undefined);
    }
    case '--host':
      args.host = value;
      return ok(undefined);
    case '--release':
      args.release = value;
      return ok(undefined);
    case '--openapi':
      args.openapi = value;
      return ok(undefined);
    case '--token':
      args.token = value;
      return ok(undefined);
    case '--forbidden-token':
      args.forbiddenTokens.push(value);
      return ok(undefined);
    case '--kubeconfig':
      args.kubeconfig = value;
      return ok(undefined);
    default:
      return err(`unknown flag ${JSON.stringify(flag)}`);
  }
}

/** Combinations that parse but make no sense. */
function checkCombination(args: ServeArgs): Result<ServeArgs, string> {
  if (args.clientCertificates && !args.tls)
    return err('--client-certs needs --tls (client certificates are only presented over HTTPS)');
  if (args.token !== undefined && args.forbiddenTokens.includes(args.token))
    return err('--forbidden-token repeats the --token value');
  return ok(args);
}

export function parseCommand(argv: readonly string[]): Result<Command, string> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help')
    return ok({ kind: 'help' });
  if (command === '--version' || command === 'version') return ok({ kind: 'version' });
  if (command !== 'serve') return err(`unknown command ${JSON.stringify(command)}`);
  const args = defaults();
  const seen = new Set<string>();
  for (let i = 0; i < rest.length; i++) {
    const raw = rest[i] ?? '';
    const eq = raw.indexOf('=');
    const inline = raw.startsWith('--') && eq > 0;
    const flag = inline ? raw.slice(0, eq) : raw;
    if (flag === '-h' || flag === '--help') return ok({ kind: 'help' });
    if (!BOOLEAN_FLAGS.has(flag) && !VALUE_FLAGS.has(flag)) {
      return err(
        flag.startsWith('-') ? `unknown flag ${JSON.stringify(flag)}` : `unexpected argument ${JSON.stringify(raw)}`,
      );
    }
    if (seen.has(flag) && !REPEATABLE.has(flag)) return err(`${flag} is given more than once`);
    seen.add(flag);
    if (BOOLEAN_FLAGS.has(flag)) {
      if (inline) return err(`${flag} takes no value`);
      if (flag === '--tls') args.tls = true;
      else args.clientCertificates = true;
      continue;
    }
    const next = rest[i + 1];
    const value = inline ? raw.slice(eq + 1) : next !== undefined && !next.startsWith('--') ? next : undefined;
    if (!inline && value !== undefined) i++;
    if (value === undefined) return err(`${flag} needs a value`);
    if (value.trim() === '') return err(`${flag} needs a non-empty value`);
    const applied = applyValue(args, flag, value);
    if (!applied.ok) return applied;
  }
  const checked = checkCombination(args);
  return checked.ok ? ok({ kind: 'serve', args: checked.value }) : checked;
}
