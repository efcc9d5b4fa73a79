/** Why an exec plugin failed; stable for programs, while `message` is for people. */
export type ExecPluginFailure =
  | 'invalid-config'
  | 'not-found'
  | 'spawn-failed'
  | 'exit-code'
  | 'timeout'
  | 'stdout-too-large'
  | 'decode'
  | 'wrong-version'
  | 'wrong-kind'
  | 'no-credential'
  | 'bad-certificate'
  | 'interactive';

/**
 * Raised by the credential source. Its message names the command but never carries the token, the key or the
 * plugin's stdout; no `cause` is attached because Node's spawn errors carry the arguments and environment.
 */
export class ExecPluginError extends Error {
  override readonly name = 'ExecPluginError';
  /** The plugin's command, as the kubeconfig names it. */
  readonly command: string;
  /** What went wrong, e.g. the plugin was not found, timed out, exited non-zero, or printed a bad credential. */
  readonly failure: ExecPluginFailure;

  constructor(command: string, failure: ExecPluginFailure, message: string) {
    super(message);
    this.command = command;
    this.failure = failure;
  }
}

/** An internal failure before it gets the command it belongs to. */
export interface Failure {
  failure: ExecPluginFailure;
  /** Text after the `exec plugin <command>: ` prefix (one line). */
  detail: string;
}

export function failure(kind: ExecPluginFailure, detail: string): Failure {
  return { failure: kind, detail };
}

const CONTROL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\\]/gu;

/**
 * Control, format (bidi overrides) and line-separator characters become \u{…} escapes so that text from a plugin
 * or a kubeconfig cannot forge log lines or reorder what a terminal shows.
 */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, (c) => (c === '\\' ? '\\\\' : `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`));
}

export function toError(command: string, f: Failure): ExecPluginError {
  return new ExecPluginError(command, f.failure, `exec plugin ${escapeControl(command)}: ${f.detail}`);
}

// client-go's wrapCmdRunErrorLocked (exec.go, installHintVerboseHelp) prints these paragraphs on separate lines; here
// they are joined with "; " so the error stays one line, its wording kept and the installHint last.
const INSTALL_HINT_HELP = [
  'It looks like you are trying to use a client-go credential plugin that is not installed.',
  'To learn more about this feature, consult the documentation available at: https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins',
];

export function notFoundError(command: string, installHint: string | undefined): ExecPluginError {
  // The hint is the kubeconfig author's multi-line text: its non-empty lines joined the same way, control characters escaped.
  const hint = (installHint ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map(escapeControl);
  return new ExecPluginError(
    command,
    'not-found',
    [`exec: executable ${escapeControl(command)} not found`, ...INSTALL_HINT_HELP, ...hint].join('; '),
  );
}
