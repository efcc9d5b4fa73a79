// The finder of programs no registry gives, on fake machines: a scratch folder stands for `/` and for the home
// directory, with shell scripts standing in for kubectl, python3, Chromium and Node.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Machine } from './external-tools.js';
import {
  checkToolVariables,
  findChromium,
  findKubectlMinor,
  findKubectls,
  findNode,
  findPython,
  missingToolsBanner,
  ToolVariableError,
} from './external-tools.js';

const scratch = mkdtempSync(join(tmpdir(), 'external-tools-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let machines = 0;

/** A fresh fake machine: its root, its home, and a PATH of the folders given (below the root). */
function fakeMachine(
  path: readonly string[] = [],
  env: Record<string, string> = {},
  runner = '20.20.2',
): Machine & { at(p: string): string } {
  const root = join(scratch, String(machines++));
  const at = (p: string): string => join(root, p);
  mkdirSync(at('home'), { recursive: true });
  return {
    env: { PATH: path.map(at).join(delimiter), ...env },
    home: at('home'),
    root,
    platform: 'sunos', // no registry build of Node is ever installed for it
    arch: 'x64',
    runner: { path: '/runner/node', version: runner },
    at,
  };
}

function script(path: string, body: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** A kubectl that reports client version 1.<minor>. */
const kubectl = (path: string, minor: number): string =>
  script(path, `echo '{"clientVersion":{"gitVersion":"v1.${minor}.4"}}'`);

/** A python3 that imports kubernetes when `withClient`, and fails the import otherwise. */
const python = (path: string, withClient: boolean): string => script(path, withClient ? 'exit 0' : 'exit 1');

describe('kubectl', () => {
  it('takes the first on PATH as the default, labelled by the version it reports', () => {
    const m = fakeMachine(['a', 'b']);
    kubectl(m.at('b/kubectl'), 31);
    kubectl(m.at('usr/bin/kubectl'), 29);
    expect(findKubectls(m)).toEqual([{ label: 'kubectl 1.31 (default)', path: m.at('b/kubectl'), minor: 31 }]);
  });

  it('looks in the usual places when PATH has none, and adds the oldest and newest versioned copies of the Cloud SDK', () => {
    const m = fakeMachine(['empty']);
    kubectl(m.at('opt/homebrew/bin/kubectl'), 32);
    for (const minor of [27, 28, 32, 33]) kubectl(m.at(`usr/lib/google-cloud-sdk/bin/kubectl.1.${minor}`), minor);
    expect(findKubectls(m).map((b) => b.label)).toEqual(['kubectl 1.32 (default)', 'kubectl 1.27', 'kubectl 1.33']);
    expect(findKubectlMinor(28, m)?.path).toBe(m.at('usr/lib/google-cloud-sdk/bin/kubectl.1.28'));
    expect(findKubectlMinor(26, m)).toBeUndefined();
  });

  it('prefers KUBECTL and KUBECTL_VERSIONS; an empty variable means none, even with kubectl on PATH', () => {
    const m = fakeMachine(['bin']);
    kubectl(m.at('bin/kubectl'), 30);
    kubectl(m.at('usr/lib/google-cloud-sdk/bin/kubectl.1.27'), 27);
    const chosen = kubectl(m.at('tools/k'), 33);
    const older = kubectl(m.at('tools/k28'), 28);
    const withVariables = {
      ...m,
      env: { ...m.env, KUBECTL: chosen, KUBECTL_VERSIONS: [older, chosen].join(delimiter) },
    };
    expect(findKubectls(withVariables).map((b) => [b.label, b.path])).toEqual([
      ['kubectl 1.33 (default)', chosen],
      ['kubectl 1.28', older],
    ]);
    expect(findKubectls({ ...m, env: { ...m.env, KUBECTL: '', KUBECTL_VERSIONS: '' } })).toEqual([]);
    // Listed versions are all there is: no Cloud SDK copy is added to them.
    expect(findKubectlMinor(27, { ...m, env: { ...m.env, KUBECTL_VERSIONS: older } })).toBeUndefined();
  });

  it('refuses a variable that names no kubectl, naming the variable and the path', () => {
    const m = fakeMachine();
    const notKubectl = script(m.at('x/kubectl'), 'exit 3');
    expect(() => findKubectls({ ...m, env: { KUBECTL: m.at('nope') } })).toThrow(ToolVariableError);
    expect(() => findKubectls({ ...m, env: { KUBECTL: m.at('nope') } })).toThrow(
      `KUBECTL=${m.at('nope')}: not an executable file`,
    );
    expect(() => findKubectls({ ...m, env: { KUBECTL: notKubectl } })).toThrow(
      `KUBECTL=${notKubectl}: does not answer kubectl version --client`,
    );
    expect(() => findKubectls({ ...m, env: { KUBECTL_VERSIONS: notKubectl } })).toThrow(/^KUBECTL_VERSIONS: /);
  });
});

describe('kubectl on gcloud and behind shims', () => {
  it("labels the Cloud SDK's dispatcher as such, and reads the version past a notice printed before the JSON", () => {
    const m = fakeMachine(['sdk', 'shim']);
    script(m.at('sdk/kubectl'), `echo '{"clientVersion":{"gitVersion":"v1.32.4-dispatcher"}}'`);
    expect(findKubectls(m)[0]?.label).toBe('kubectl 1.32 (default, gcloud dispatcher)');
    const shimmed = fakeMachine(['shim']);
    script(
      shimmed.at('shim/kubectl'),
      `echo 'notice: a newer version is available'; echo '{"clientVersion":{"gitVersion":"v1.30.1"}}'`,
    );
    expect(findKubectls(shimmed)[0]).toMatchObject({ label: 'kubectl 1.30 (default)', minor: 30 });
  });

  it('skips a kubectl on PATH that does not answer for a working one after it', () => {
    const m = fakeMachine(['stale', 'good']);
    script(m.at('stale/kubectl'), 'exit 1');
    kubectl(m.at('good/kubectl'), 31);
    expect(findKubectls(m)[0]?.path).toBe(m.at('good/kubectl'));
  });
});

describe('tool variables', () => {
  it('looks a bare name up on PATH, as a shell would (PYTHON=python3)', () => {
    const m = fakeMachine(['bin']);
    python(m.at('bin/python3'), true);
    expect(findPython({ ...m, env: { ...m.env, PYTHON: 'python3' } })).toBe(m.at('bin/python3'));
    expect(() => findPython({ ...m, env: { ...m.env, PYTHON: 'python9' } })).toThrow(
      'PYTHON=python9: not found on PATH',
    );
  });

  it('are checked once, only those set: the first that names no usable program, else nothing', () => {
    const m = fakeMachine(['bin']);
    kubectl(m.at('bin/kubectl'), 31);
    expect(checkToolVariables(m)).toBeUndefined();
    expect(checkToolVariables({ ...m, env: { ...m.env, KUBECTL: '', PYTHON: '' } })).toBeUndefined();
    const bad = checkToolVariables({ ...m, env: { ...m.env, CHROME_PATH: m.at('nope') } });
    expect(bad).toBeInstanceOf(ToolVariableError);
    expect(bad?.message).toBe(`CHROME_PATH=${m.at('nope')}: not an executable file`);
    expect(checkToolVariables({ ...m, env: { ...m.env, NODE_22: 'node22' } })?.message).toBe(
      'NODE_22=node22: not found on PATH',
    );
  });
});

describe('the Python client', () => {
  it("on macOS never runs /usr/bin/python3 while it is the Command Line Tools' stub (xcode-select -p fails)", () => {
    const m = { ...fakeMachine(['empty']), platform: 'darwin' as const };
    const marker = m.at('ran');
    script(m.at('usr/bin/python3'), `touch '${marker}'; exit 0`);
    // Where xcode-select fails or is missing (a Mac without the Command Line Tools, or this Linux), it is left alone.
    const toolsInstalled = spawnSync('xcode-select', ['-p']).status === 0;
    expect(findPython(m)).toBe(toolsInstalled ? m.at('usr/bin/python3') : undefined);
    expect(existsSync(marker)).toBe(toolsInstalled);
    expect(findPython({ ...m, platform: 'linux' })).toBe(m.at('usr/bin/python3'));
  });

  it('takes the first python3 that imports kubernetes: past a PATH one without it, to the system one', () => {
    const m = fakeMachine(['pyenv/shims']);
    python(m.at('pyenv/shims/python3'), false);
    python(m.at('usr/bin/python3'), true);
    expect(findPython(m)).toBe(m.at('usr/bin/python3'));
    expect(findPython(fakeMachine(['pyenv/shims']))).toBeUndefined();
  });

  it('takes PYTHON, refuses one without the client, and does without it when PYTHON is empty', () => {
    const m = fakeMachine();
    const good = python(m.at('py/good'), true);
    const bad = python(m.at('py/bad'), false);
    python(m.at('usr/bin/python3'), true);
    expect(findPython({ ...m, env: { PYTHON: good } })).toBe(good);
    expect(() => findPython({ ...m, env: { PYTHON: bad } })).toThrow(`PYTHON=${bad}: cannot import kubernetes`);
    expect(findPython({ ...m, env: { PYTHON: '' } })).toBeUndefined();
  });
});

describe('Chromium', () => {
  it('takes CHROME_PATH, then a browser on PATH, then the usual places (macOS apps among them)', () => {
    const m = fakeMachine(['bin']);
    const app = script(m.at('Applications/Google Chrome.app/Contents/MacOS/Google Chrome'), 'exit 0');
    expect(findChromium(m)).toBe(app);
    const onPath = script(m.at('bin/chromium-browser'), 'exit 0');
    expect(findChromium(m)).toBe(onPath);
    const chosen = script(m.at('x/chrome'), 'exit 0');
    expect(findChromium({ ...m, env: { ...m.env, CHROME_PATH: chosen } })).toBe(chosen);
    expect(findChromium({ ...m, env: { ...m.env, CHROME_PATH: '' } })).toBeUndefined();
    expect(findChromium(fakeMachine(['bin']))).toBeUndefined();
  });
});

describe('Node majors', () => {
  it("is the runner for the runner's own major, NODE_<major> before it", () => {
    const m = fakeMachine([], {}, '22.23.3');
    expect(findNode(22, m)).toBe('/runner/node');
    const chosen = script(m.at('n/node'), 'echo v22.1.0');
    expect(findNode(22, { ...m, env: { NODE_22: chosen } })).toBe(chosen);
  });

  it('finds the newest of a major where nvm, fnm, Volta or Homebrew keep it', () => {
    const m = fakeMachine();
    script(m.at('home/.nvm/versions/node/v24.1.0/bin/node'), 'exit 0');
    const newest = script(m.at('home/.nvm/versions/node/v24.10.2/bin/node'), 'exit 0');
    script(m.at('home/.nvm/versions/node/v22.9.0/bin/node'), 'exit 0');
    expect(findNode(24, m)).toBe(newest);
    const fnm = script(m.at('home/.local/share/fnm/node-versions/v20.11.1/installation/bin/node'), 'exit 0');
    expect(findNode(20, { ...m, runner: { path: '/runner/node', version: '24.0.0' } })).toBe(fnm);
    const brew = fakeMachine([], {}, '24.0.0');
    const formula = script(brew.at('opt/homebrew/opt/node@22/bin/node'), 'exit 0');
    expect(findNode(22, brew)).toBe(formula);
    expect(findNode(20, brew)).toBeUndefined();
  });
});

describe('the banner', () => {
  it('is empty when nothing was skipped', () => {
    expect(missingToolsBanner([])).toBe('');
  });

  it('names each missing tool once, its variable, how to install it, and every suite it skipped', () => {
    const banner = missingToolsBanner([
      { tool: 'kubectl', file: 'test/interop/kubectl/kubectl.test.ts', suite: 'kubectl conformance' },
      { tool: 'chromium', file: 'test/engines/matrix.test.ts', suite: 'Chromium (headless), cross-origin' },
      { tool: 'kubectl', file: 'test/interop/kubectl/apply.test.ts', suite: 'kubectl and server-side apply' },
    ]);
    expect(banner.match(/: not found/g)).toHaveLength(2);
    expect(banner).toContain('kubectl: not found (set KUBECTL');
    expect(banner).toContain('install: brew install kubectl');
    expect(banner).toContain('skipped: test/interop/kubectl/apply.test.ts › kubectl and server-side apply');
    expect(banner).toContain('skipped: test/interop/kubectl/kubectl.test.ts › kubectl conformance');
    expect(banner).toContain('Chromium (or Chrome): not found (set CHROME_PATH)');
    expect(banner).toContain('K8S_LEASE_REQUIRE_TOOLS=1');
  });
});
