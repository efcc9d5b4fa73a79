// ExecPluginError and the one-line messages it is made with. The not-found wording is client-go's
// wrapCmdRunErrorLocked (plugin/pkg/client/auth/exec/exec.go: "exec: executable %s not found", then
// installHintVerboseHelp, then the kubeconfig's installHint), joined on one line here.
import { describe, expect, it } from 'vitest';
import {
  ExecPluginError,
  escapeControl,
  failure,
  notFoundError,
  toError,
} from '../../../templates/k8s-lease-client-node/src/exec/errors.js';

const HELP = [
  'It looks like you are trying to use a client-go credential plugin that is not installed.',
  'To learn more about this feature, consult the documentation available at: https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins',
];

describe('ExecPluginError', () => {
  it('is an Error named ExecPluginError with the command and the failure kind', () => {
    const error = new ExecPluginError('aws', 'timeout', 'exec plugin aws: timed out');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ExecPluginError');
    expect(String(error)).toBe('ExecPluginError: exec plugin aws: timed out');
    expect(error).toMatchObject({ command: 'aws', failure: 'timeout' });
    expect(error.cause).toBeUndefined();
  });
});

describe('escapeControl', () => {
  it.each([
    ['a line break', 'a\nb', 'a\\u{a}b'],
    ['a carriage return', 'a\rb', 'a\\u{d}b'],
    ['an ANSI escape', '\u001b[31mred', '\\u{1b}[31mred'],
    ['a bidi override', 'evil\u202eexe', 'evil\\u{202e}exe'],
    ['a line separator', 'a\u2028b', 'a\\u{2028}b'],
    ['a backslash, so an escape cannot be forged', 'a\\u{a}', 'a\\\\u{a}'],
  ])('escapes %s', (_name, text, escaped) => {
    expect(escapeControl(text)).toBe(escaped);
  });

  it('leaves printable text alone, non-ASCII included', () => {
    expect(escapeControl('/usr/local/bin/gke-gcloud-auth-plugin é ü 日本')).toBe(
      '/usr/local/bin/gke-gcloud-auth-plugin é ü 日本',
    );
  });
});

describe('toError', () => {
  it('prefixes the detail with the command, escaped, and keeps the failure kind', () => {
    const error = toError('plug\nin', failure('exit-code', 'executable failed with exit code 73'));
    expect(error).toBeInstanceOf(ExecPluginError);
    expect(error.message).toBe('exec plugin plug\\u{a}in: executable failed with exit code 73');
    expect(error).toMatchObject({ command: 'plug\nin', failure: 'exit-code' });
  });
});

describe('notFoundError', () => {
  it("kubectl's wording on one line, the installHint last (client-go's unknown-binary case)", () => {
    const error = notFoundError('does not exist', 'some install hint');
    expect(error.message).toBe(['exec: executable does not exist not found', ...HELP, 'some install hint'].join('; '));
    expect(error).toMatchObject({ command: 'does not exist', failure: 'not-found' });
  });

  it('without an installHint, the help alone', () => {
    expect(notFoundError('aws', undefined).message).toBe(['exec: executable aws not found', ...HELP].join('; '));
  });

  it('a multi-line installHint: its non-empty lines, trimmed, escaped, each joined the same way', () => {
    const error = notFoundError('aws', '  Install it:\n\n  brew install awscli \u001b[0m\n');
    expect(error.message).toBe(
      ['exec: executable aws not found', ...HELP, 'Install it:', 'brew install awscli \\u{1b}[0m'].join('; '),
    );
    expect(error.message).not.toContain('\n');
  });
});
