// The programs some tests drive that the npm registry cannot give on every machine: kubectl, the official Python
// client, Chromium, and Node majors other than the runner's where the registry has no build for this platform.
// Each is found the way a user has it: its environment variable first, then PATH, then the usual install
// locations of Debian/Ubuntu, Fedora and Homebrew (and, for Node, of nvm, fnm, Volta, asdf and n).
// A variable set to the empty string means "do without it"; one that names no usable program is an error, never a
// silent fallback. What is missing is skipped by name (needs-tool.ts) and listed in one banner at the end of the
// run (missing-tools-banner.ts); under K8S_LEASE_REQUIRE_TOOLS=1, which .ci/run sets, it fails instead.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { PROJECT_ROOT } from './project.js';

/** Set to 1 (by .ci/run) to make a missing tool fail its suites rather than skip them. */
export const REQUIRE_TOOLS_VARIABLE = 'K8S_LEASE_REQUIRE_TOOLS';

export type ToolId = 'kubectl' | 'kubectl 1.33' | 'python-kubernetes' | 'chromium' | `node${NodeMajor}`;
export type NodeMajor = 20 | 22 | 24;
export const NODE_MAJORS: readonly NodeMajor[] = [20, 22, 24];

export interface ToolInfo {
  /** What the banner calls it. */
  readonly name: string;
  /** The environment variable that names it. */
  readonly variable: string;
  /** How to install it on common systems, one line. */
  readonly install: string;
}

const NODE_INSTALL = (major: NodeMajor): ToolInfo => ({
  name: `Node ${major}`,
  variable: `NODE_${major}`,
  install: `nvm install ${major} (or fnm install ${major}, volta install node@${major}, brew install node@${major})`,
});

export const TOOLS: Readonly<Record<ToolId, ToolInfo>> = {
  kubectl: {
    name: 'kubectl',
    variable: 'KUBECTL (one binary), KUBECTL_VERSIONS (more, separated by the path delimiter)',
    install: 'brew install kubectl · sudo snap install kubectl --classic · sudo dnf install kubernetes-client',
  },
  'kubectl 1.33': {
    name: 'kubectl 1.33',
    variable: 'KUBECTL_VERSIONS (or KUBECTL)',
    install: 'download kubectl v1.33 (kubernetes.io/docs/tasks/tools), then KUBECTL_VERSIONS=/path/to/kubectl-1.33',
  },
  'python-kubernetes': {
    name: 'the official Python client (python3 with the kubernetes module)',
    variable: 'PYTHON',
    install:
      'sudo apt-get install python3-kubernetes · sudo dnf install python3-kubernetes · python3 -m pip install kubernetes',
  },
  chromium: {
    name: 'Chromium (or Chrome)',
    variable: 'CHROME_PATH',
    install:
      'sudo apt-get install chromium · sudo snap install chromium · sudo dnf install chromium · brew install --cask chromium',
  },
  node20: NODE_INSTALL(20),
  node22: NODE_INSTALL(22),
  node24: NODE_INSTALL(24),
};

/** Where to look, so tests of this module can point it at a fake machine. */
export interface Machine {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home: string;
  /** Prefixed to the usual install locations (`/usr/bin` …): `/` here, a scratch folder in this module's tests. */
  readonly root: string;
  readonly platform: NodeJS.Platform;
  readonly arch: string;
  /** The Node running the tests: its path and version. */
  readonly runner: { readonly path: string; readonly version: string };
}

export const THIS_MACHINE: Machine = {
  env: process.env,
  home: homedir(),
  root: '/',
  platform: process.platform,
  arch: process.arch,
  runner: { path: process.execPath, version: process.versions.node },
};

/** A variable that names no usable program: the user asked for something that is not there. */
export class ToolVariableError extends Error {
  override readonly name = 'ToolVariableError';
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function pathDirs(machine: Machine): string[] {
  return (machine.env['PATH'] ?? '').split(delimiter).filter((dir) => dir !== '');
}

/**
 * `undefined` when the variable is unset; `null` when it is set empty (do without); else the path, checked. A bare
 * name (`PYTHON=python3`) is looked up on PATH, as a shell would.
 */
function fromVariable(machine: Machine, variable: string): string | null | undefined {
  const value = machine.env[variable];
  if (value === undefined) return undefined;
  if (value.trim() === '') return null;
  const path = /[/\\]/.test(value) ? value : firstExecutable(pathDirs(machine).map((dir) => join(dir, value)));
  if (path === undefined) throw new ToolVariableError(`${variable}=${value}: not found on PATH`);
  if (!isExecutable(path)) throw new ToolVariableError(`${variable}=${value}: not an executable file`);
  return path;
}

/** A usual install location on this machine (absolute paths are taken below `machine.root`). */
function usual(machine: Machine, ...paths: string[]): string[] {
  return paths.map((path) => join(machine.root, path));
}

function firstExecutable(candidates: readonly string[]): string | undefined {
  return candidates.find(isExecutable);
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}

// ---------------------------------------------------------------------------------------------------------------
// kubectl

export interface KubectlBinary {
  /** `kubectl 1.32`, with `(default)` for the one KUBECTL or PATH names (`(default, gcloud dispatcher)` for the Cloud SDK's). */
  readonly label: string;
  readonly path: string;
  /** The client's minor version, read from `kubectl version --client` or from a `kubectl.1.NN` file name. */
  readonly minor: number;
}

/** Google Cloud SDK folders, which keep versioned copies (`kubectl.1.27` …) beside its kubectl. */
function cloudSdkDirs(machine: Machine): string[] {
  return [
    ...usual(
      machine,
      '/usr/lib/google-cloud-sdk/bin', // Debian/Ubuntu (apt)
      '/usr/lib64/google-cloud-sdk/bin', // Fedora (dnf)
      '/snap/google-cloud-cli/current/bin',
      '/opt/homebrew/share/google-cloud-sdk/bin', // Homebrew, Apple silicon
      '/usr/local/share/google-cloud-sdk/bin', // Homebrew, Intel
    ),
    join(machine.home, 'google-cloud-sdk', 'bin'), // the SDK's own installer
  ];
}

function kubectlDirs(machine: Machine): string[] {
  return unique([
    ...pathDirs(machine),
    ...usual(machine, '/usr/local/bin', '/usr/bin', '/opt/homebrew/bin', '/snap/bin'),
    join(machine.home, '.local', 'bin'),
    ...cloudSdkDirs(machine),
  ]);
}

interface KubectlClient {
  readonly minor: number;
  /**
   * The Cloud SDK's `kubectl` is a dispatcher (`v1.32.4-dispatcher`): it runs the `kubectl.1.NN` beside it nearest
   * the server's version, so the minor it reports is not the one that runs.
   */
  readonly dispatcher: boolean;
}

function kubectlClient(path: string): KubectlClient | undefined {
  const run = spawnSync(path, ['version', '--client', '--output=json'], { encoding: 'utf8', timeout: 20_000 });
  if (run.status !== 0) return undefined;
  try {
    // From the first '{': a wrapper (gcloud's, a version manager's shim) may print a notice before the JSON.
    const parsed = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as {
      clientVersion?: { gitVersion?: unknown };
    };
    const git = parsed.clientVersion?.gitVersion;
    const match = typeof git === 'string' ? /^v1\.(\d+)\.\d+(-dispatcher)?/.exec(git) : null;
    return match?.[1] === undefined ? undefined : { minor: Number(match[1]), dispatcher: match[2] !== undefined };
  } catch {
    return undefined;
  }
}

/** The client minor a kubectl reports (`gitVersion` v1.NN.x), or undefined when it does not run. */
export function kubectlMinor(path: string): number | undefined {
  return kubectlClient(path)?.minor;
}

function defaultKubectl(path: string, client: KubectlClient): KubectlBinary {
  const note = client.dispatcher ? 'default, gcloud dispatcher' : 'default';
  return { label: `kubectl 1.${client.minor} (${note})`, path, minor: client.minor };
}

function versionedKubectls(machine: Machine): KubectlBinary[] {
  const found = new Map<number, KubectlBinary>();
  for (const dir of kubectlDirs(machine)) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names.sort()) {
      const minor = /^kubectl\.1\.(\d+)$/.exec(name)?.[1];
      const path = join(dir, name);
      if (minor === undefined || found.has(Number(minor)) || !isExecutable(path)) continue;
      found.set(Number(minor), { label: `kubectl 1.${minor}`, path, minor: Number(minor) });
    }
  }
  return [...found.values()].sort((a, b) => a.minor - b.minor);
}

/**
 * The kubectl binaries the interop suites drive: the default one (KUBECTL, else the first on PATH or in the usual
 * places) and versioned ones (every path in KUBECTL_VERSIONS, else the oldest and the newest `kubectl.1.NN` found
 * beside the Cloud SDK's), one per minor.
 */
export function findKubectls(machine: Machine = THIS_MACHINE): KubectlBinary[] {
  const chosen = fromVariable(machine, 'KUBECTL');
  const binaries: KubectlBinary[] = [];
  if (chosen != null) {
    const client = kubectlClient(chosen);
    if (client === undefined)
      throw new ToolVariableError(`KUBECTL=${chosen}: does not answer kubectl version --client`);
    binaries.push(defaultKubectl(chosen, client));
  } else if (chosen === undefined) {
    // The first that answers: a broken one early on PATH (a stale shim) must not hide a working one after it.
    for (const path of kubectlDirs(machine)
      .map((dir) => join(dir, 'kubectl'))
      .filter(isExecutable)) {
      const client = kubectlClient(path);
      if (client === undefined) continue;
      binaries.push(defaultKubectl(path, client));
      break;
    }
  }
  const listed = machine.env['KUBECTL_VERSIONS'];
  const versioned =
    listed === undefined
      ? ((all) => unique([all[0], all.at(-1)]).filter((b) => b !== undefined))(versionedKubectls(machine))
      : listed
          .split(delimiter)
          .filter((path) => path.trim() !== '')
          .map((path) => {
            const minor = isExecutable(path) ? kubectlMinor(path) : undefined;
            if (minor === undefined)
              throw new ToolVariableError(`KUBECTL_VERSIONS: ${path}: not a kubectl that answers version --client`);
            return { label: `kubectl 1.${minor}`, path, minor };
          });
  for (const binary of versioned)
    if (!binaries.some((b) => b.minor === binary.minor || b.path === binary.path)) binaries.push(binary);
  return binaries;
}

/** The default kubectl (or, without one, the first versioned one found), for suites that need any kubectl. */
export function findKubectl(machine: Machine = THIS_MACHINE): KubectlBinary | undefined {
  return findKubectls(machine)[0];
}

/** A kubectl of exactly this minor among those found, for suites that need one release's behaviour. */
export function findKubectlMinor(minor: number, machine: Machine = THIS_MACHINE): KubectlBinary | undefined {
  const chosen = findKubectls(machine).find((b) => b.minor === minor);
  if (chosen !== undefined || machine.env['KUBECTL_VERSIONS'] !== undefined) return chosen;
  return versionedKubectls(machine).find((b) => b.minor === minor);
}

// ---------------------------------------------------------------------------------------------------------------
// The official Python client

function importsKubernetes(python: string): boolean {
  const run = spawnSync(python, ['-c', 'import kubernetes, kubernetes.leaderelection'], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return run.status === 0;
}

/**
 * A python3 that imports the official client: PYTHON, else each python3 on PATH, then the system's (Debian's and
 * Fedora's packages install it for /usr/bin/python3, which a pyenv or Homebrew python3 earlier on PATH lacks).
 */
export function findPython(machine: Machine = THIS_MACHINE): string | undefined {
  const chosen = fromVariable(machine, 'PYTHON');
  if (chosen === null) return undefined;
  if (chosen !== undefined) {
    if (!importsKubernetes(chosen))
      throw new ToolVariableError(`PYTHON=${chosen}: cannot import kubernetes (python3 -m pip install kubernetes)`);
    return chosen;
  }
  const candidates = unique(
    [...pathDirs(machine), ...usual(machine, '/usr/bin', '/usr/local/bin', '/opt/homebrew/bin')].map((dir) =>
      join(dir, 'python3'),
    ),
  ).filter(isExecutable);
  return candidates.filter((path) => !isXcodeStub(path, machine)).find(importsKubernetes);
}

/**
 * macOS's /usr/bin/python3 is a stub until the Command Line Tools are installed, and running it then opens their
 * installer: it is only tried once `xcode-select -p` names an installed developer folder.
 */
function isXcodeStub(path: string, machine: Machine): boolean {
  if (machine.platform !== 'darwin' || path !== join(machine.root, '/usr/bin/python3')) return false;
  return spawnSync('xcode-select', ['-p'], { encoding: 'utf8', timeout: 10_000 }).status !== 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Chromium

const BROWSER_NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome', 'chrome'];

/** A Chromium or Chrome for the runtime matrix's browser row: CHROME_PATH, else PATH, else the usual places. */
export function findChromium(machine: Machine = THIS_MACHINE): string | undefined {
  const chosen = fromVariable(machine, 'CHROME_PATH');
  if (chosen !== undefined) return chosen ?? undefined;
  const onPath = pathDirs(machine).flatMap((dir) => BROWSER_NAMES.map((name) => join(dir, name)));
  return firstExecutable([
    ...onPath,
    ...usual(
      machine,
      '/usr/bin/chromium', // Debian
      '/usr/lib/chromium/chromium',
      '/usr/bin/chromium-browser', // Fedora; Ubuntu's runs the snap
      '/snap/bin/chromium',
      '/usr/bin/google-chrome-stable',
      '/opt/google/chrome/chrome',
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    ),
    join(machine.home, 'Applications', 'Chromium.app', 'Contents', 'MacOS', 'Chromium'),
    join(machine.home, 'Applications', 'Google Chrome.app', 'Contents', 'MacOS', 'Google Chrome'),
  ]);
}

// ---------------------------------------------------------------------------------------------------------------
// Node majors

/** The registry's build of Node for this platform (test/engines/node-binaries, installed by `npm ci`'s postinstall). */
export function registryNode(major: NodeMajor, machine: Machine = THIS_MACHINE): string {
  const exe = machine.platform === 'win32' ? 'node.exe' : 'node';
  const pkg = `node${major}-${machine.platform}-${machine.arch}`;
  return join(PROJECT_ROOT, 'test', 'engines', 'node-binaries', 'node_modules', pkg, 'bin', exe);
}

function byVersionDescending(a: string, b: string): number {
  const parts = (s: string): number[] => (/(\d+)\.(\d+)\.(\d+)/.exec(s)?.slice(1) ?? []).map(Number);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (y[i] ?? 0) - (x[i] ?? 0);
  return 0;
}

/** Version folders named `[v]MAJOR.x.y` below `dir`, newest first, each joined with `tail`. */
function versionFolders(dir: string, major: NodeMajor, tail: readonly string[]): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => new RegExp(`^v?${major}\\.\\d+\\.\\d+$`).test(name))
    .sort(byVersionDescending)
    .map((name) => join(dir, name, ...tail));
}

function versionManagerNodes(major: NodeMajor, machine: Machine): string[] {
  const { env, home } = machine;
  const fnmDirs = [
    env['FNM_DIR'],
    join(home, '.local', 'share', 'fnm'),
    join(home, 'Library', 'Application Support', 'fnm'),
    join(home, '.fnm'),
  ].filter((dir): dir is string => dir !== undefined);
  return [
    ...versionFolders(join(env['NVM_DIR'] ?? join(home, '.nvm'), 'versions', 'node'), major, ['bin', 'node']),
    ...fnmDirs.flatMap((dir) => versionFolders(join(dir, 'node-versions'), major, ['installation', 'bin', 'node'])),
    ...versionFolders(join(env['VOLTA_HOME'] ?? join(home, '.volta'), 'tools', 'image', 'node'), major, [
      'bin',
      'node',
    ]),
    ...versionFolders(join(env['ASDF_DATA_DIR'] ?? join(home, '.asdf'), 'installs', 'nodejs'), major, ['bin', 'node']),
    ...versionFolders(join(env['N_PREFIX'] ?? join(machine.root, 'usr', 'local'), 'n', 'versions', 'node'), major, [
      'bin',
      'node',
    ]),
    ...usual(machine, `/opt/homebrew/opt/node@${major}/bin/node`, `/usr/local/opt/node@${major}/bin/node`),
  ];
}

/**
 * A Node of this major: NODE_<major>, else the runner itself when it is that major, else the registry's build
 * for this platform, else one a version manager or Homebrew installed.
 */
export function findNode(major: NodeMajor, machine: Machine = THIS_MACHINE): string | undefined {
  const chosen = fromVariable(machine, `NODE_${major}`);
  if (chosen !== undefined) return chosen ?? undefined;
  if (machine.runner.version.startsWith(`${major}.`)) return machine.runner.path;
  return firstExecutable([registryNode(major, machine), ...versionManagerNodes(major, machine)]);
}

/**
 * Every tool variable that is set, checked once before the run: the first that names no usable program, or
 * undefined. The globalSetup (missing-tools-banner.ts) reports it in one line, rather than each test file that
 * looks for the tool failing with a stack trace.
 */
export function checkToolVariables(machine: Machine = THIS_MACHINE): ToolVariableError | undefined {
  const checks: ReadonlyArray<readonly [readonly string[], () => unknown]> = [
    [['KUBECTL', 'KUBECTL_VERSIONS'], () => findKubectls(machine)],
    [['PYTHON'], () => findPython(machine)],
    [['CHROME_PATH'], () => findChromium(machine)],
    ...NODE_MAJORS.map((major) => [[`NODE_${major}`], () => findNode(major, machine)] as const),
  ];
  for (const [variables, check] of checks) {
    if (!variables.some((variable) => (machine.env[variable] ?? '').trim() !== '')) continue;
    try {
      check();
    } catch (error) {
      if (error instanceof ToolVariableError) return error;
      throw error;
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// The banner

/** One suite that did not run, as needs-tool.ts records it for the banner. */
export interface MissingToolRecord {
  readonly tool: ToolId;
  /** The test file, relative to the repository. */
  readonly file: string;
  readonly suite: string;
}

/** The end-of-run banner: each missing tool, the suites that did not run, how to get it. Empty when none. */
export function missingToolsBanner(records: readonly MissingToolRecord[]): string {
  if (records.length === 0) return '';
  const tools = unique(records.map((r) => r.tool)).sort();
  const lines = [
    '',
    '━━ Skipped: tools not found on this machine (see CONTRIBUTING.md, "Tools the tests look for") ━━',
  ];
  for (const tool of tools) {
    const info = TOOLS[tool];
    lines.push('', `  ${info.name}: not found (set ${info.variable})`);
    lines.push(`    install: ${info.install}`);
    const suites = unique(records.filter((r) => r.tool === tool).map((r) => `${r.file} › ${r.suite}`)).sort();
    for (const suite of suites) lines.push(`    skipped: ${suite}`);
  }
  lines.push('', `  ${REQUIRE_TOOLS_VARIABLE}=1 makes a missing tool fail the run instead (CI sets it).`, '');
  return lines.join('\n');
}
