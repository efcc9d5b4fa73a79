// The command line of k8s-lease: kubectl's and client-go's option names, one-line refusals with exit 2.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TIMINGS,
  defaultGrace,
  parseCommand,
  UsageError,
} from '../../../templates/k8s-lease-client-node/src/cli/args.js';
import { run } from './harness.js';

describe('parseCommand', () => {
  it('lock: the name, the command after --, client-go default timings and a grace that fits between them', () => {
    const command = parseCommand([
      'lock',
      'nightly',
      '-n',
      'jobs',
      '--identity',
      'me',
      '--',
      'backup.sh',
      '--full',
      '-n',
    ]);
    expect(command).toMatchObject({
      kind: 'lock',
      args: {
        name: 'nightly',
        namespace: 'jobs',
        identity: 'me',
        command: ['backup.sh', '--full', '-n'],
        ...DEFAULT_TIMINGS,
        grace: 2_500,
        timeout: undefined,
        fencingEnv: false,
        healthzPort: undefined,
        healthzAddress: '127.0.0.1',
      },
    });
    expect(defaultGrace(DEFAULT_TIMINGS)).toBe(2_500);
  });

  it('lock and elect: --healthz-port (0 for any free port) and --healthz-address', () => {
    expect(parseCommand(['lock', 'x', '--healthz-port', '0', '--', 'true'])).toMatchObject({
      args: { healthzPort: 0, healthzAddress: '127.0.0.1' },
    });
    expect(
      parseCommand(['elect', 'x', '--healthz-port', '8080', '--healthz-address', '0.0.0.0', '--', 'true']),
    ).toMatchObject({ kind: 'elect', args: { healthzPort: 8080, healthzAddress: '0.0.0.0' } });
  });

  it('elect --coordinated: the LeaseCandidate versions, 1.0.0 unless given, emulation defaulting to the binary version', () => {
    expect(parseCommand(['elect', 'x', '--', 'true'])).toMatchObject({ args: { coordinated: undefined } });
    expect(parseCommand(['elect', 'x', '--coordinated', '--', 'true'])).toMatchObject({
      args: { coordinated: { binaryVersion: '1.0.0', emulationVersion: '1.0.0' } },
    });
    expect(
      parseCommand([
        'elect',
        'x',
        '--coordinated',
        '--binary-version',
        '1.34.1',
        '--emulation-version',
        '1.33.0',
        '--',
        'true',
      ]),
    ).toMatchObject({ args: { coordinated: { binaryVersion: '1.34.1', emulationVersion: '1.33.0' } } });
    // The identity names the LeaseCandidate: by default host-pid, a name the client can put in a path.
    expect(parseCommand(['elect', 'x', '--coordinated', '--', 'true'])).toMatchObject({
      args: { identity: expect.stringMatching(new RegExp(`^[a-z0-9][-a-z0-9.]*-${process.pid}$`)) },
    });
    expect(parseCommand(['elect', 'x', '--coordinated', '--binary-version', '2.0.0-rc.1', '--', 'true'])).toMatchObject(
      {
        args: { coordinated: { binaryVersion: '2.0.0-rc.1', emulationVersion: '2.0.0-rc.1' } },
      },
    );
  });

  it('lock: Go durations for the timings, --timeout and --grace', () => {
    const command = parseCommand([
      'lock',
      'x',
      '--lease-duration',
      '1m',
      '--renew-deadline',
      '40s',
      '--retry-period',
      '500ms',
      '--timeout',
      '1m30s',
      '--grace',
      '10s',
      '--fencing-env',
      '--',
      'true',
    ]);
    expect(command).toMatchObject({
      args: {
        leaseDuration: 60_000,
        renewDeadline: 40_000,
        retryPeriod: 500,
        timeout: 90_000,
        grace: 10_000,
        fencingEnv: true,
      },
    });
  });

  it.each([
    [['lock'], 'lock: a Lease name is required: k8s-lease lock NAME -- COMMAND [ARGS...]'],
    [['lock', 'x'], 'lock: a command is required after --: k8s-lease lock NAME -- COMMAND [ARGS...]'],
    [['lock', 'x', 'echo', '--'], 'lock: unexpected "echo": put the command after --'],
    [['lock', 'x', '--timeout', 'soon', '--', 'true'], '--timeout "soon": not a duration such as 15s, 1m30s or 500ms'],
    [
      ['lock', 'x', '--grace', '5s', '--', 'true'],
      "lock: --renew-deadline 10s + --grace 5s must be below --lease-duration 15s, or another replica could start before this one's command is killed",
    ],
    [['lock', 'x', '--identity', '', '--', 'true'], '--identity must not be empty'],
    [['get', '-o', 'xml'], 'get: -o "xml": expected json, yaml or wide'],
    [['get', 'a', 'b'], 'get: unexpected "b"'],
    [['get', 'a', '-A'], 'get: a name cannot be given with -A'],
    [['list', 'a'], 'list: unexpected "a" (list takes no name; use get NAME)'],
    [['release'], 'release: a Lease name is required: k8s-lease release NAME'],
    [
      ['lock', 'x', '--healthz-port', '65536', '--', 'true'],
      'lock: --healthz-port "65536": expected a port number from 0 to 65535',
    ],
    [
      ['elect', 'x', '--healthz-port', '80.5', '--', 'true'],
      'elect: --healthz-port "80.5": expected a port number from 0 to 65535',
    ],
    [['lock', 'x', '--healthz-address', '::1', '--', 'true'], 'lock: --healthz-address needs --healthz-port'],
    [['get', '--healthz-port', '1'], 'get: --healthz-port is an option of lock and elect, not of get'],
    // release writes client-go's release record (leaseDurationSeconds 1), never the timings: they are refused, not ignored.
    [
      ['release', 'x', '--lease-duration', '3s'],
      'release: --lease-duration is an option of lock and elect, not of release',
    ],
    [['release', 'x', '--retry-period=1s'], 'release: --retry-period is an option of lock and elect, not of release'],
    [['elect', 'x', '--binary-version', '1.2.3', '--', 'true'], 'elect: --binary-version needs --coordinated'],
    [['elect', 'x', '--emulation-version', '1.2.3', '--', 'true'], 'elect: --emulation-version needs --coordinated'],
    [
      ['elect', 'x', '--coordinated', '--binary-version', 'v1.33', '--', 'true'],
      'elect: --binary-version "v1.33": expected a semantic version such as 1.2.3',
    ],
    [
      ['elect', 'x', '--coordinated', '--identity', 'Host_1', '--', 'true'],
      'elect: --identity "Host_1": with --coordinated it names the LeaseCandidate, so it must be a lowercase RFC 1123 subdomain',
    ],
    // ValidateLeaseCandidateSpec: an emulationVersion equal to semver.Version{} is "Required" under OldestEmulationVersion.
    [
      ['elect', 'x', '--coordinated', '--binary-version', '0.0.0', '--', 'true'],
      'elect: --binary-version "0.0.0": 0.0.0 counts as no version; give one above it',
    ],
    [['watch', 'a'], 'watch: unexpected "a" (watch takes no name; select with -l)'],
    [['explode'], 'unknown command "explode" (see k8s-lease --help)'],
  ])('refuses %j in one line', (argv, message) => {
    expect(() => parseCommand(argv)).toThrow(UsageError);
    expect(() => parseCommand(argv)).toThrow(message);
  });

  it("refuses an unknown option with node:util's one-line message, naming it", () => {
    expect(() => parseCommand(['lock', 'x', '--bogus', '--', 'true'])).toThrow(/^lock: Unknown option '--bogus'/);
    expect(() => parseCommand(['get', '--bogus'])).toThrow(UsageError);
  });

  it('prints help for the tool and for each command, and the version, exiting 0', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: k8s-lease COMMAND [options]');
    for (const sub of ['lock', 'get', 'list', 'release']) {
      const sub1 = await run([sub, '--help']);
      expect(sub1.code).toBe(0);
      expect(sub1.out).toContain(`Usage: k8s-lease ${sub}`);
    }
    expect((await run(['help', 'lock'])).out).toContain('Usage: k8s-lease lock NAME');
    expect((await run(['--version'])).out).toMatch(/^k8s-lease \S+\n$/);
  });

  it('answers a bad command line with exit 2 and one line on stderr', async () => {
    const bad = await run(['lock', 'x', '--timeout', '5', '--', 'true']);
    expect(bad.code).toBe(2);
    expect(bad.err).toBe('k8s-lease: --timeout "5": not a duration such as 15s, 1m30s or 500ms\n');
    expect(bad.out).toBe('');
  });
});
