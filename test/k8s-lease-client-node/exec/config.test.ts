// An exec stanza checked before anything runs. The rules are client-go's: tools/clientcmd/validation.go
// validateAuthInfo (command and apiVersion required; interactiveMode required and one of Never, IfAvailable, Always;
// env names required), v1beta1's SetDefaults_ExecConfig (interactiveMode IfAvailable), and tools/clientcmd/loader.go
// ResolveLocalPaths / GetAuthInfoFileReferences (a command is resolved against the kubeconfig's directory only
// when it contains a path separator).
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  resolveCommand,
  V1,
  V1BETA1,
  validateExecConfig,
} from '../../../templates/k8s-lease-client-node/src/exec/config.js';
import { failure } from '../../../templates/k8s-lease-client-node/src/exec/errors.js';
import { ok } from '../../../templates/k8s-lease-client-node/src/exec/result.js';
import type { KubeconfigExec } from '../../../templates/k8s-lease-client-node/src/exec/types.js';

const VALID: KubeconfigExec = { command: 'plugin', apiVersion: V1, interactiveMode: 'Never' };
const invalid = (detail: string) => ({ ok: false, error: failure('invalid-config', detail) });

describe('validateExecConfig', () => {
  it('a minimal v1 stanza: no args, no env, no cluster info', () => {
    expect(validateExecConfig(VALID)).toEqual(
      ok({
        command: 'plugin',
        args: [],
        env: [],
        apiVersion: V1,
        interactiveMode: 'Never',
        provideClusterInfo: false,
        installHint: undefined,
      }),
    );
  });

  it('keeps args, env, provideClusterInfo and installHint', () => {
    const exec: KubeconfigExec = {
      ...VALID,
      args: ['get-token', '--cluster', 'c'],
      env: [{ name: 'AWS_PROFILE', value: 'dev' }],
      provideClusterInfo: true,
      installHint: 'brew install plugin',
    };
    expect(validateExecConfig(exec)).toEqual(
      ok({
        command: 'plugin',
        args: exec.args,
        env: exec.env,
        apiVersion: V1,
        interactiveMode: 'Never',
        provideClusterInfo: true,
        installHint: 'brew install plugin',
      }),
    );
  });

  it('v1beta1 defaults interactiveMode to IfAvailable (SetDefaults_ExecConfig); v1 does not', () => {
    const beta = validateExecConfig({ command: 'plugin', apiVersion: V1BETA1 });
    expect(beta.ok && beta.value.interactiveMode).toBe('IfAvailable');
    expect(validateExecConfig({ command: 'plugin', apiVersion: V1 })).toEqual(
      invalid(`interactiveMode must be specified to use exec authentication plugin with ${V1}`),
    );
  });

  it.each(['Never', 'IfAvailable', 'Always'] as const)('accepts interactiveMode %s', (interactiveMode) => {
    const validated = validateExecConfig({ ...VALID, interactiveMode });
    expect(validated.ok && validated.value.interactiveMode).toBe(interactiveMode);
  });

  it.each<[string, Partial<KubeconfigExec>, string]>([
    ['no command', { command: '' }, 'command must be specified to use exec authentication plugin'],
    [
      'v1alpha1, removed in 1.24',
      { apiVersion: 'client.authentication.k8s.io/v1alpha1' },
      `invalid apiVersion "client.authentication.k8s.io/v1alpha1": want ${V1} or ${V1BETA1}`,
    ],
    ['no apiVersion', { apiVersion: undefined as never }, `invalid apiVersion "undefined": want ${V1} or ${V1BETA1}`],
    [
      'an interactiveMode of another case',
      { interactiveMode: 'never' as never },
      'invalid interactiveMode "never": valid values are Never, IfAvailable, Always',
    ],
    ['args that are not strings', { args: ['--x', 1 as never] }, 'args must be a list of strings'],
    [
      'an env entry without a name',
      { env: [{ name: '', value: 'v' }] },
      'env must be a list of {name, value} strings with non-empty names',
    ],
    [
      'an env entry without a value',
      { env: [{ name: 'N' } as never] },
      'env must be a list of {name, value} strings with non-empty names',
    ],
  ])('refuses %s', (_name, patch, detail) => {
    expect(validateExecConfig({ ...VALID, ...patch })).toEqual(invalid(detail));
  });

  it('quotes a long apiVersion or interactiveMode only in part, on one line', () => {
    const apiVersion = validateExecConfig({ ...VALID, apiVersion: `x\n${'v'.repeat(500)}` });
    const mode = validateExecConfig({ ...VALID, interactiveMode: `x\n${'m'.repeat(500)}` as never });
    for (const result of [apiVersion, mode]) {
      expect(result.ok).toBe(false);
      const detail = result.ok ? '' : result.error.detail;
      expect(detail).not.toContain('\n');
      expect(detail.length).toBeLessThan(250);
    }
  });
});

describe('resolveCommand', () => {
  const kubeconfig = join('/home', 'me', '.kube', 'config');

  it('a command with a path separator is relative to the kubeconfig’s directory', () => {
    expect(resolveCommand('./bin/plugin', kubeconfig)).toBe(resolve('/home/me/.kube/bin/plugin'));
    expect(resolveCommand('../plugin', kubeconfig)).toBe(resolve('/home/me/plugin'));
  });

  it('a bare name is left to the PATH lookup, an absolute path as it is', () => {
    expect(resolveCommand('aws', kubeconfig)).toBe('aws');
    expect(resolveCommand('/usr/local/bin/aws', kubeconfig)).toBe('/usr/local/bin/aws');
  });

  it('without a kubeconfig file (an in-memory config) nothing is resolved', () => {
    expect(resolveCommand('./bin/plugin', undefined)).toBe('./bin/plugin');
  });

  it('a relative kubeconfig path is taken from the working directory', () => {
    expect(resolveCommand('./plugin', 'kube/config')).toBe(resolve('kube', 'plugin'));
  });
});
