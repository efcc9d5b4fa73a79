import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../templates/k8s-lease-api-server/src/cli-args.js';

describe('parseCommand', () => {
  it('parses serve flags in both --flag value and --flag=value forms', () => {
    const parsed = parseCommand([
      'serve',
      '--port=0',
      '--release',
      '1.31.1',
      '--token',
      't',
      '--forbidden-token',
      'f1',
      '--forbidden-token=f2',
      '--tls',
      '--history',
      '50',
    ]);
    expect(parsed.ok && parsed.value).toEqual({
      kind: 'serve',
      args: expect.objectContaining({
        port: 0,
        release: '1.31.1',
        token: 't',
        forbiddenTokens: ['f1', 'f2'],
        tls: true,
        clientCertificates: false,
        historyWindow: 50,
      }),
    });
    expect(parseCommand(['serve', '--port', 'abc']).ok).toBe(false);
    expect(parseCommand(['serve', '--nope']).ok).toBe(false);
  });

  it.each([
    ['CoordinatedLeaderElection=true', true],
    ['CoordinatedLeaderElection=True', true],
    ['CoordinatedLeaderElection=1', true],
    ['CoordinatedLeaderElection=t', true],
    ['CoordinatedLeaderElection=false', false],
    ['CoordinatedLeaderElection=F', false],
    ['CoordinatedLeaderElection=0', false],
  ])('--feature-gates %s reads the value as Go strconv.ParseBool does', (gate, enabled) => {
    const parsed = parseCommand(['serve', '--feature-gates', gate]);
    expect(parsed.ok && parsed.value.kind === 'serve' && parsed.value.args.coordinatedLeaderElection).toBe(enabled);
  });

  it.each<[string, boolean | undefined, boolean]>([
    ['WatchList=true', true, false],
    ['WatchList=0', false, false],
    ['CoordinatedLeaderElection=true,WatchList=false', false, true],
    [' WatchList=T , CoordinatedLeaderElection=1', true, true],
    ['CoordinatedLeaderElection=true', undefined, true],
  ])('--feature-gates %s sets WatchList and CoordinatedLeaderElection each on its own', (gates, watchList, cle) => {
    const parsed = parseCommand(['serve', '--feature-gates', gates]);
    const args = parsed.ok && parsed.value.kind === 'serve' ? parsed.value.args : undefined;
    expect(args?.watchList).toBe(watchList);
    expect(args?.coordinatedLeaderElection).toBe(cle);
  });

  it.each(['CoordinatedLeaderElection=yes', 'CoordinatedLeaderElection', 'OtherGate=true', 'WatchList=on'])(
    '--feature-gates %s is refused with one line',
    (gate) => {
      const parsed = parseCommand(['serve', '--feature-gates', gate]);
      expect(parsed.ok ? '' : parsed.error).toMatch(/^--feature-gates: unrecognized feature gate: /);
    },
  );

  it('accepts the repeatable flags and --forbidden-token without --token', () => {
    const parsed = parseCommand([
      'serve',
      '--tls',
      '--client-certs',
      '--namespaces',
      'a,b',
      '--namespaces=c',
      '--forbidden-token',
      'f',
      '--forbidden-token',
      'g',
    ]);
    expect(parsed.ok && parsed.value).toEqual({
      kind: 'serve',
      args: expect.objectContaining({
        tls: true,
        clientCertificates: true,
        namespaces: ['a', 'b', 'c'],
        forbiddenTokens: ['f', 'g'],
        token: undefined,
      }),
    });
    expect(parseCommand(['serve', '--token=--dashes']).ok && parseCommand(['serve', '--token=--dashes'])).toMatchObject(
      { value: { args: { token: '--dashes' } } },
    );
  });

  it('reads --cors-allowed-origins as kube-apiserver does: comma-separated and repeatable', () => {
    const parsed = parseCommand([
      'serve',
      '--cors-allowed-origins',
      '^http://a$,//b(:|$)',
      '--cors-allowed-origins=^http://c$',
    ]);
    expect(parsed.ok && parsed.value.kind === 'serve' && parsed.value.args.corsAllowedOrigins).toEqual([
      '^http://a$',
      '//b(:|$)',
      '^http://c$',
    ]);
  });
});
