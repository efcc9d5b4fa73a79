// The command line of `k8s-lease`, parsed apart from running it so that every refusal is one line (exit 2) and
// testable without a cluster. Option names are kubectl's (--kubeconfig, --context, -n) and client-go's leader
// election flags' (--lease-duration, --renew-deadline, --retry-period).
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { formatDuration, parseDuration } from './duration.js';

/** Where the cluster is and who this process is: every subcommand's options. */
export interface CommonArgs {
  readonly kubeconfig: string | undefined;
  readonly context: string | undefined;
  /** -n; undefined: the context's namespace (kubectl's rule). */
  readonly namespace: string | undefined;
  readonly identity: string;
}

export interface ElectionTimings {
  readonly leaseDuration: number;
  readonly renewDeadline: number;
  readonly retryPeriod: number;
}

/** --healthz-port and --healthz-address, of lock and elect. */
export interface HealthOptions {
  /** undefined: no server; 0: any free port. */
  readonly healthzPort: number | undefined;
  readonly healthzAddress: string;
}

export interface LockArgs extends CommonArgs, ElectionTimings, HealthOptions {
  readonly name: string;
  readonly command: readonly [string, ...string[]];
  /** Give up acquiring after this many ms; undefined: wait for ever. */
  readonly timeout: number | undefined;
  /** After the Lease is lost: SIGTERM, then SIGKILL this many ms later. */
  readonly grace: number;
  readonly fencingEnv: boolean;
}

/** What `elect` does when the command ends while this replica leads. */
export type RestartPolicy = 'always' | 'on-failure' | 'never';
const RESTART_POLICIES: readonly RestartPolicy[] = ['always', 'on-failure', 'never'];

/** `elect --coordinated`: what the LeaseCandidate announces (client-go's NewCandidate arguments). */
export interface CoordinatedArgs {
  readonly binaryVersion: string;
  readonly emulationVersion: string;
}

export interface ElectArgs extends CommonArgs, ElectionTimings, HealthOptions {
  readonly name: string;
  readonly command: readonly [string, ...string[]];
  readonly grace: number;
  readonly fencingEnv: boolean;
  readonly restart: RestartPolicy;
  /** undefined: the plain election; else coordinated leader election through a LeaseCandidate. */
  readonly coordinated: CoordinatedArgs | undefined;
}

export type OutputFormat = 'table' | 'wide' | 'json' | 'yaml';

export interface ShowArgs extends CommonArgs {
  /** get: one Lease, or all in the namespace; list and watch: all. */
  readonly name: string | undefined;
  readonly allNamespaces: boolean;
  readonly selector: string | undefined;
  readonly output: OutputFormat;
}

export interface ReleaseArgs extends CommonArgs {
  readonly name: string;
  readonly force: boolean;
}

export type Command =
  | { readonly kind: 'help'; readonly topic: Subcommand | undefined }
  | { readonly kind: 'version' }
  | { readonly kind: 'lock'; readonly args: LockArgs }
  | { readonly kind: 'elect'; readonly args: ElectArgs }
  | { readonly kind: 'get' | 'list' | 'watch'; readonly args: ShowArgs }
  | { readonly kind: 'release'; readonly args: ReleaseArgs };

export type Subcommand = 'lock' | 'elect' | 'get' | 'list' | 'watch' | 'release';
const SUBCOMMANDS: readonly Subcommand[] = ['lock', 'elect', 'get', 'list', 'watch', 'release'];

/** client-go's defaults (leaderelection.go: LeaseDuration 15 s, RenewDeadline 10 s, RetryPeriod 2 s). */
export const DEFAULT_TIMINGS: ElectionTimings = { leaseDuration: 15_000, renewDeadline: 10_000, retryPeriod: 2_000 };

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const COMMON = {
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
  namespace: { type: 'string', short: 'n' },
  identity: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const TIMINGS = {
  'lease-duration': { type: 'string' },
  'renew-deadline': { type: 'string' },
  'retry-period': { type: 'string' },
} as const;

const HEALTH = {
  'healthz-port': { type: 'string' },
  'healthz-address': { type: 'string' },
} as const;

const OPTIONS = {
  lock: {
    ...COMMON,
    ...TIMINGS,
    ...HEALTH,
    timeout: { type: 'string' },
    grace: { type: 'string' },
    'fencing-env': { type: 'boolean' },
  },
  elect: {
    ...COMMON,
    ...TIMINGS,
    ...HEALTH,
    grace: { type: 'string' },
    'fencing-env': { type: 'boolean' },
    restart: { type: 'string' },
    coordinated: { type: 'boolean' },
    'binary-version': { type: 'string' },
    'emulation-version': { type: 'string' },
  },
  get: {
    ...COMMON,
    output: { type: 'string', short: 'o' },
    'all-namespaces': { type: 'boolean', short: 'A' },
    selector: { type: 'string', short: 'l' },
  },
  release: { ...COMMON, force: { type: 'boolean' } },
} as const;

/** The default identity: host name and process id, unique per running process on a host. */
export function defaultIdentity(): string {
  return `${hostname()}_${process.pid}`;
}

/** What node:util's parseArgs gives for the options. */
type Values = Record<string, string | boolean | undefined>;

/** A string option's value; undefined when absent (a boolean option never reads as text). */
function textOf(values: Values, key: string): string | undefined {
  const value = values[key];
  return typeof value === 'string' ? value : undefined;
}

function duration(flag: string, value: string | undefined, fallback: number): number;
function duration(flag: string, value: string | undefined, fallback: undefined): number | undefined;
function duration(flag: string, value: string | undefined, fallback: number | undefined): number | undefined {
  if (value === undefined) return fallback;
  const ms = parseDuration(value);
  if (ms === undefined)
    throw new UsageError(`--${flag} ${JSON.stringify(value)}: not a duration such as 15s, 1m30s or 500ms`);
  return ms;
}

function common(values: Values): CommonArgs {
  const identity = textOf(values, 'identity') ?? defaultIdentity();
  if (identity.trim() === '') throw new UsageError('--identity must not be empty');
  return {
    kubeconfig: textOf(values, 'kubeconfig'),
    context: textOf(values, 'context'),
    namespace: textOf(values, 'namespace'),
    identity,
  };
}

function timings(values: Values): ElectionTimings {
  const timing = (flag: keyof typeof TIMINGS, fallback: number): number =>
    duration(flag, textOf(values, flag), fallback);
  return {
    leaseDuration: timing('lease-duration', DEFAULT_TIMINGS.leaseDuration),
    renewDeadline: timing('renew-deadline', DEFAULT_TIMINGS.renewDeadline),
    retryPeriod: timing('retry-period', DEFAULT_TIMINGS.retryPeriod),
  };
}

/**
 * The default of --healthz-address: reachable from this host only, so nothing is exposed unasked. A kubelet probes
 * the Pod's IP: in a Pod, give 0.0.0.0.
 */
export const DEFAULT_HEALTHZ_ADDRESS = '127.0.0.1';

function health(sub: 'lock' | 'elect', values: Values): HealthOptions {
  const port = values['healthz-port'];
  const address = values['healthz-address'];
  const healthzAddress = typeof address === 'string' ? address : DEFAULT_HEALTHZ_ADDRESS;
  if (healthzAddress.trim() === '') throw new UsageError(`${sub}: --healthz-address must not be empty`);
  if (typeof port !== 'string') {
    if (typeof address === 'string') throw new UsageError(`${sub}: --healthz-address needs --healthz-port`);
    return { healthzPort: undefined, healthzAddress };
  }
  const healthzPort = /^\d{1,5}$/.test(port) ? Number(port) : Number.NaN;
  if (!(healthzPort <= 65_535))
    throw new UsageError(`${sub}: --healthz-port ${JSON.stringify(port)}: expected a port number from 0 to 65535`);
  return { healthzPort, healthzAddress };
}

/**
 * The grace a lost Lease leaves the command: SIGKILL must land before another replica may take the Lease over,
 * which it may once leaseDuration has passed since it saw the last renewal, while this replica gives up
 * renewDeadline after its last successful one. Half of the gap, so a slow kill still fits.
 */
export function defaultGrace(t: ElectionTimings): number {
  return Math.max(0, Math.floor((t.leaseDuration - t.renewDeadline) / 2));
}

function splitCommand(argv: readonly string[]): { own: string[]; command: string[] | undefined } {
  const dash = argv.indexOf('--');
  return dash < 0
    ? { own: [...argv], command: undefined }
    : { own: argv.slice(0, dash), command: argv.slice(dash + 1) };
}

function parse<O extends (typeof OPTIONS)[keyof typeof OPTIONS]>(
  sub: Subcommand,
  options: O,
  argv: readonly string[],
): { values: Values; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: true });
    return { values: values as Values, positionals };
  } catch (error) {
    // node:util's messages are one line already; they name the option.
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    throw new UsageError(`${sub}: ${elsewhere(sub, message) ?? message}`);
  }
}

/**
 * For an option another subcommand takes (release --lease-duration: release writes no timings), says so instead of
 * node:util's "Unknown option", so the option is not thought misspelt; undefined for any other message.
 */
function elsewhere(sub: Subcommand, message: string): string | undefined {
  const flag = /^Unknown option '--([^'=]+)'/.exec(message)?.[1];
  if (flag === undefined) return undefined;
  const owners = SUBCOMMANDS.filter((other) => other !== sub && Object.hasOwn(OPTIONS[optionsOf(other)], flag));
  return owners.length === 0 ? undefined : `--${flag} is an option of ${owners.join(' and ')}, not of ${sub}`;
}

function optionsOf(sub: Subcommand): keyof typeof OPTIONS {
  return sub === 'list' || sub === 'watch' ? 'get' : sub;
}

/** NAME -- COMMAND, the timings and a grace that fits between them: what lock and elect share. */
function parseRunning(sub: 'lock' | 'elect', argv: readonly string[]) {
  const { own, command } = splitCommand(argv);
  const { values, positionals } = parse(sub, OPTIONS[sub], own);
  if (values['help'] === true) return { help: true as const };
  const [name, ...extra] = positionals;
  const shape = `k8s-lease ${sub} NAME -- COMMAND [ARGS...]`;
  if (name === undefined) throw new UsageError(`${sub}: a Lease name is required: ${shape}`);
  if (extra.length > 0)
    throw new UsageError(`${sub}: unexpected ${JSON.stringify(extra[0])}: put the command after --`);
  const [program, ...programArgs] = command ?? [];
  if (program === undefined) throw new UsageError(`${sub}: a command is required after --: ${shape}`);
  const t = timings(values);
  const grace = duration('grace', textOf(values, 'grace'), defaultGrace(t));
  if (t.renewDeadline + grace >= t.leaseDuration)
    throw new UsageError(
      `${sub}: --renew-deadline ${formatDuration(t.renewDeadline)} + --grace ${formatDuration(grace)} must be below --lease-duration ${formatDuration(t.leaseDuration)}, or another replica could start before this one's command is killed`,
    );
  return {
    help: false as const,
    values,
    args: {
      ...common(values),
      ...t,
      ...health(sub, values),
      name,
      command: [program, ...programArgs] as [string, ...string[]],
      grace,
      fencingEnv: values['fencing-env'] === true,
    },
  };
}

function parseLock(argv: readonly string[]): Command {
  const parsed = parseRunning('lock', argv);
  if (parsed.help) return { kind: 'help', topic: 'lock' };
  const timeout = duration('timeout', textOf(parsed.values, 'timeout'), undefined);
  return { kind: 'lock', args: { ...parsed.args, timeout } };
}

/**
 * The LeaseCandidate's default binaryVersion (and so emulationVersion) when --binary-version is not given: every
 * candidate equal, so the controller's OldestEmulationVersion falls through to its tie-break (the earliest created
 * candidate). Not 0.0.0: the API server counts that emulationVersion as unset and refuses it under
 * OldestEmulationVersion (ValidateLeaseCandidateSpec).
 */
export const DEFAULT_BINARY_VERSION = '1.0.0';

/** A semantic version without a leading v, as a LeaseCandidate's binaryVersion and emulationVersion must be. */
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

function version(flag: 'binary-version' | 'emulation-version', value: string): string {
  if (!SEMVER.test(value))
    throw new UsageError(`elect: --${flag} ${JSON.stringify(value)}: expected a semantic version such as 1.2.3`);
  // semver's 0.0.0 (build metadata aside): the server's "emulationVersion required".
  if (/^0\.0\.0(\+|$)/.test(value))
    throw new UsageError(`elect: --${flag} ${JSON.stringify(value)}: 0.0.0 counts as no version; give one above it`);
  return value;
}

function coordinated(values: Values): CoordinatedArgs | undefined {
  const binary = textOf(values, 'binary-version');
  const emulation = textOf(values, 'emulation-version');
  if (values['coordinated'] !== true) {
    if (binary !== undefined || emulation !== undefined)
      throw new UsageError(`elect: --${binary === undefined ? 'emulation' : 'binary'}-version needs --coordinated`);
    return undefined;
  }
  const binaryVersion = version('binary-version', binary ?? DEFAULT_BINARY_VERSION);
  const emulationVersion = emulation === undefined ? binaryVersion : version('emulation-version', emulation);
  return { binaryVersion, emulationVersion };
}

/** A DNS-1123 subdomain: the object names this package's client puts in a path (path-segments.ts). */
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * The identity of a coordinated replica, which names its LeaseCandidate: the one given, if the client can address
 * it; by default host name and process id joined by '-' rather than '_' (lowercased, other characters '-').
 */
function candidateIdentity(given: string | undefined): string {
  if (given !== undefined) {
    if (given.length <= 253 && SUBDOMAIN.test(given)) return given;
    throw new UsageError(
      `elect: --identity ${JSON.stringify(given)}: with --coordinated it names the LeaseCandidate, so it must be a lowercase RFC 1123 subdomain (a-z, 0-9, '-', '.')`,
    );
  }
  const host = hostname()
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, '-')
    .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '');
  return `${host === '' ? 'k8s-lease' : host.slice(0, 200)}-${process.pid}`;
}

function parseElect(argv: readonly string[]): Command {
  const parsed = parseRunning('elect', argv);
  if (parsed.help) return { kind: 'help', topic: 'elect' };
  const restart = textOf(parsed.values, 'restart') ?? 'always';
  if (!RESTART_POLICIES.includes(restart as RestartPolicy))
    throw new UsageError(`elect: --restart ${JSON.stringify(restart)}: expected always, on-failure or never`);
  const versions = coordinated(parsed.values);
  const identity = versions === undefined ? parsed.args.identity : candidateIdentity(textOf(parsed.values, 'identity'));
  return {
    kind: 'elect',
    args: { ...parsed.args, identity, restart: restart as RestartPolicy, coordinated: versions },
  };
}

const NO_NAME_HINT = {
  get: '',
  list: ' (list takes no name; use get NAME)',
  watch: ' (watch takes no name; select with -l)',
} as const;

const FORMATS: readonly OutputFormat[] = ['json', 'yaml', 'wide'];

function parseShow(sub: 'get' | 'list' | 'watch', argv: readonly string[]): Command {
  const { values, positionals } = parse(sub, OPTIONS.get, argv);
  if (values['help'] === true) return { kind: 'help', topic: sub };
  const output = textOf(values, 'output');
  if (output !== undefined && !FORMATS.includes(output as OutputFormat))
    throw new UsageError(`${sub}: -o ${JSON.stringify(output)}: expected json, yaml or wide`);
  const maxNames = sub === 'get' ? 1 : 0;
  if (positionals.length > maxNames)
    throw new UsageError(`${sub}: unexpected ${JSON.stringify(positionals[maxNames])}${NO_NAME_HINT[sub]}`);
  const allNamespaces = values['all-namespaces'] === true;
  if (allNamespaces && positionals[0] !== undefined) throw new UsageError(`${sub}: a name cannot be given with -A`);
  return {
    kind: sub,
    args: {
      ...common(values),
      name: positionals[0],
      allNamespaces,
      selector: textOf(values, 'selector'),
      output: (output as OutputFormat | undefined) ?? 'table',
    },
  };
}

function parseRelease(argv: readonly string[]): Command {
  const { values, positionals } = parse('release', OPTIONS.release, argv);
  if (values['help'] === true) return { kind: 'help', topic: 'release' };
  const [name, ...extra] = positionals;
  if (name === undefined) throw new UsageError('release: a Lease name is required: k8s-lease release NAME');
  if (extra.length > 0) throw new UsageError(`release: unexpected ${JSON.stringify(extra[0])}`);
  return { kind: 'release', args: { ...common(values), name, force: values['force'] === true } };
}

/** The command `argv` (without node and the script) asks for; throws UsageError with a one-line message. */
export function parseCommand(argv: readonly string[]): Command {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help')
    return { kind: 'help', topic: SUBCOMMANDS.find((s) => s === rest[0]) };
  if (first === '--version') return { kind: 'version' };
  switch (first) {
    case 'lock':
      return parseLock(rest);
    case 'elect':
      return parseElect(rest);
    case 'get':
    case 'list':
    case 'watch':
      return parseShow(first, rest);
    case 'release':
      return parseRelease(rest);
    default:
      throw new UsageError(`unknown command ${JSON.stringify(first)} (see k8s-lease --help)`);
  }
}
