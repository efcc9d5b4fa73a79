// redact.ts by itself: what a config shows when printed. The fields are those client-go marks as secrets
// (tools/clientcmd/api/types.go: AuthInfo's token, password and client-key-data carry datapolicy tags; ExecConfig.String
// prints "--- REDACTED ---" for args and env; AuthProviderConfig.String for the provider's config). No secret may show
// in util.inspect, JSON.stringify or String() of a redactable object, nor in the copy.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REDACTED, redactable, redactedCopy, redactUrl } from '../../templates/k8s-lease-client-node/src/redact.js';

const SECRET = 'secret-4b1d9e';

/** Everything a user might print: util.inspect (deep and default), JSON, String(), a template literal. */
function renderings(value: object): string[] {
  return [inspect(value, { depth: Infinity }), inspect(value), JSON.stringify(value), String(value), `${value}`];
}

describe('redactUrl', () => {
  it.each([
    ['user-info', `http://user:${SECRET}@proxy:3128/`, `http://${REDACTED}@proxy:3128/`],
    ['a user name alone', `http://${SECRET}@proxy:3128`, `http://${REDACTED}@proxy:3128/`],
    ['a query', `https://k8s.example:6443/base?token=${SECRET}`, `https://k8s.example:6443/base?${REDACTED}`],
    ['both, and a fragment', `https://u:${SECRET}@h/p?t=${SECRET}#x`, `https://${REDACTED}@h/p?${REDACTED}`],
  ])('replaces %s', (_name, url, expected) => {
    expect(redactUrl(url)).toBe(expected);
    expect(redactUrl(url)).not.toContain(SECRET);
  });

  it('leaves a URL without credentials or query as it was written', () => {
    expect(redactUrl('https://k8s.example:6443')).toBe('https://k8s.example:6443');
    expect(redactUrl('http://proxy:3128/path#frag')).toBe('http://proxy:3128/path#frag');
  });

  it('redacts text that does not parse as a URL whole (it may be a credential pasted in the wrong place)', () => {
    expect(redactUrl(`not a url ${SECRET}`)).toBe(REDACTED);
    expect(redactUrl('')).toBe(REDACTED);
  });
});

describe('redactedCopy', () => {
  it.each(['token', 'password', 'clientKeyData', 'key', 'authorization', 'value', 'args', 'env', 'config'])(
    'replaces the value of %s, whatever its case',
    (key) => {
      expect(redactedCopy({ [key]: SECRET, [key.toUpperCase()]: [SECRET] })).toEqual({
        [key]: REDACTED,
        [key.toUpperCase()]: REDACTED,
      });
    },
  );

  it('keeps an absent or empty secret as it is, so a missing credential still shows as missing', () => {
    expect(redactedCopy({ token: '', password: undefined })).toEqual({ token: '', password: undefined });
  });

  it('an exec stanza: args and env redacted whole, as client-go’s ExecConfig.String, the command kept', () => {
    const exec = {
      command: 'gke-gcloud-auth-plugin',
      args: ['--token', SECRET],
      env: [{ name: 'SECRET', value: SECRET }],
      apiVersion: 'client.authentication.k8s.io/v1',
    };
    expect(redactedCopy({ exec })).toEqual({
      exec: { command: 'gke-gcloud-auth-plugin', args: REDACTED, env: REDACTED, apiVersion: exec.apiVersion },
    });
  });

  it('an auth-provider’s config redacted whole, as AuthProviderConfig.String, its name kept', () => {
    const authProvider = { name: 'oidc', config: { 'id-token': SECRET, 'client-secret': SECRET } };
    expect(redactedCopy({ authProvider })).toEqual({ authProvider: { name: 'oidc', config: REDACTED } });
  });

  it.each(['proxyUrl', 'proxy-url', 'server', 'baseUrl'])('redacts the credentials of the URL in %s', (key) => {
    expect(redactedCopy({ [key]: `https://u:${SECRET}@h/?token=${SECRET}` })).toEqual({
      [key]: `https://${REDACTED}@h/?${REDACTED}`,
    });
  });

  it('walks arrays and Maps, nested at any depth', () => {
    const users = new Map([['admin', { token: SECRET, username: 'admin' }]]);
    expect(redactedCopy({ list: [[{ password: SECRET }]], users })).toEqual({
      list: [[{ password: REDACTED }]],
      users: { admin: { token: REDACTED, username: 'admin' } },
    });
  });

  it('turns functions (token providers, fetch) into a marker and a cycle into [Circular]', () => {
    const config: Record<string, unknown> = { tokenProvider: () => SECRET, fetch };
    config['self'] = config;
    expect(redactedCopy(config)).toEqual({ tokenProvider: '[Function]', fetch: '[Function]', self: '[Circular]' });
  });

  it('keeps a __proto__ name from a kubeconfig a plain key, and the original untouched', () => {
    const original = JSON.parse(`{"__proto__": {"token": "${SECRET}"}, "name": "x"}`) as object;
    const copy = redactedCopy(original) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBeNull();
    expect(Object.keys(copy)).toEqual(['__proto__', 'name']);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ token: REDACTED });
    expect(JSON.stringify(original)).toContain(SECRET);
  });

  it('passes values that are not objects through', () => {
    expect([null, undefined, 1, 'text', true].map((value) => redactedCopy(value))).toEqual([
      null,
      undefined,
      1,
      'text',
      true,
    ]);
  });
});

describe('redactable', () => {
  const config = (): {
    server: string;
    token: string;
    user: { username: string; password: string };
    exec: { command: string; args: string[] };
  } => ({
    server: `https://k8s.example:6443/?token=${SECRET}`,
    token: SECRET,
    user: { username: 'admin', password: SECRET },
    exec: { command: 'plugin', args: [SECRET] },
  });

  it('no secret in util.inspect, JSON.stringify, String() or a template literal', () => {
    const target = redactable(config());
    for (const text of renderings(target)) {
      expect(text).not.toContain(SECRET);
      expect(text).toContain(REDACTED);
    }
    expect(JSON.parse(JSON.stringify(target))).toEqual({
      server: `https://k8s.example:6443/?${REDACTED}`,
      token: REDACTED,
      user: { username: 'admin', password: REDACTED },
      exec: { command: 'plugin', args: REDACTED },
    });
  });

  it('leaves the data as it is for the code that needs it, and spreading copies only the data', () => {
    const target = redactable(config());
    expect(target.token).toBe(SECRET);
    expect(target.exec.args).toEqual([SECRET]);
    expect(Object.keys(target)).toEqual(['server', 'token', 'user', 'exec']);
    expect({ ...target }).toEqual(config());
  });

  it('shows the data as it is at the time it is printed', () => {
    const target = redactable(config());
    target.user.username = 'root';
    expect(inspect(target)).toContain("username: 'root'");
  });

  it('an error that carries a redactable config in its cause shows no secret either', () => {
    const error = new Error('connection failed', { cause: redactable(config()) });
    for (const text of [inspect(error, { depth: Infinity }), String(error.stack)]) expect(text).not.toContain(SECRET);
  });

  it('returns the object it was given', () => {
    const target = config();
    expect(redactable(target)).toBe(target);
  });
});
