import { dirname, isAbsolute, resolve, sep } from 'node:path';
import { failure, type Failure } from './errors.js';
import { err, ok, type Result } from './result.js';
import type { KubeconfigExec } from './types.js';

export const V1 = 'client.authentication.k8s.io/v1';
export const V1BETA1 = 'client.authentication.k8s.io/v1beta1';
export type ExecApiVersion = typeof V1 | typeof V1BETA1;
export type InteractiveMode = 'Never' | 'IfAvailable' | 'Always';

export interface ValidExecConfig {
  command: string;
  args: readonly string[];
  env: ReadonlyArray<{ name: string; value: string }>;
  apiVersion: ExecApiVersion;
  interactiveMode: InteractiveMode;
  provideClusterInfo: boolean;
  installHint: string | undefined;
}

const MODES: readonly string[] = ['Never', 'IfAvailable', 'Always'];

/**
 * What client-go checks before it runs anything: clientcmd's validateAuthInfo (command and apiVersion required,
 * interactiveMode required for v1 and one of the three modes), v1beta1's SetDefaults_ExecConfig (IfAvailable), and
 * exec.go's apiVersions table (v1alpha1 was removed in 1.24).
 */
export function validateExecConfig(exec: KubeconfigExec): Result<ValidExecConfig, Failure> {
  if (typeof exec.command !== 'string' || exec.command === '')
    return err(failure('invalid-config', 'command must be specified to use exec authentication plugin'));
  if (exec.apiVersion !== V1 && exec.apiVersion !== V1BETA1) {
    return err(
      failure(
        'invalid-config',
        `invalid apiVersion ${JSON.stringify(String(exec.apiVersion)).slice(0, 120)}: want ${V1} or ${V1BETA1}`,
      ),
    );
  }
  const mode: unknown = exec.interactiveMode ?? (exec.apiVersion === V1BETA1 ? 'IfAvailable' : undefined);
  if (mode === undefined)
    return err(
      failure('invalid-config', `interactiveMode must be specified to use exec authentication plugin with ${V1}`),
    );
  if (typeof mode !== 'string' || !MODES.includes(mode)) {
    return err(
      failure(
        'invalid-config',
        `invalid interactiveMode ${JSON.stringify(String(mode)).slice(0, 60)}: valid values are Never, IfAvailable, Always`,
      ),
    );
  }
  const args = exec.args ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string'))
    return err(failure('invalid-config', 'args must be a list of strings'));
  const env = exec.env ?? [];
  if (
    !Array.isArray(env) ||
    !env.every((e) => typeof e?.name === 'string' && e.name !== '' && typeof e.value === 'string')
  ) {
    return err(failure('invalid-config', 'env must be a list of {name, value} strings with non-empty names'));
  }
  return ok({
    command: exec.command,
    args,
    env,
    apiVersion: exec.apiVersion,
    interactiveMode: mode as InteractiveMode,
    provideClusterInfo: exec.provideClusterInfo === true,
    installHint: exec.installHint,
  });
}

/**
 * As clientcmd's ResolveLocalPaths: a relative command that contains a path separator is relative to the
 * kubeconfig's directory; a bare name is left to the PATH lookup.
 */
export function resolveCommand(command: string, kubeconfigPath: string | undefined): string {
  if (kubeconfigPath === undefined || isAbsolute(command)) return command;
  const hasSeparator = command.includes(sep) || command.includes('/');
  return hasSeparator ? resolve(dirname(resolve(kubeconfigPath)), command) : command;
}
