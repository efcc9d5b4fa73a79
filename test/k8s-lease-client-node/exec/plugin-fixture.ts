// The fixture exec plugin (fixtures/plugin.mjs) as the exec tests run it: a credential source over it, and the
// record of its runs (the plugin appends one line per run to the file PLUGIN_RECORD names).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { execCredentialSource } from '../../../templates/k8s-lease-client-node/src/exec/source.js';
import type {
  ExecClusterInfo,
  ExecCredentialSource,
  ExecCredentialSourceOptions,
  KubeconfigExec,
} from '../../../templates/k8s-lease-client-node/src/exec/types.js';

export const PLUGIN = fileURLToPath(new URL('./fixtures/plugin.mjs', import.meta.url));
export const V1 = 'client.authentication.k8s.io/v1';
export const V1BETA1 = 'client.authentication.k8s.io/v1beta1';
export const CLUSTER: ExecClusterInfo = { server: 'https://127.0.0.1:6443' };
export const TMP = mkdtempSync(join(tmpdir(), 'exec-plugin-'));
let recordCounter = 0;

afterAll(() => {
  rmSync(TMP, { recursive: true, force: true });
});

export interface Run {
  argv: string[];
  execInfo: string | null;
  env: Record<string, string | null>;
}

/** A fresh record file: the plugin appends one line per run. */
export function newRecord(): string {
  recordCounter += 1;
  return join(TMP, `record-${recordCounter}.jsonl`);
}

export function runs(record: string): Run[] {
  if (!existsSync(record)) return [];
  return readFileSync(record, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Run);
}

/** The fixture plugin run by this Node, as kubeconfigs run `node plugin.mjs`. */
export function pluginExec(env: Record<string, string>, overrides: Partial<KubeconfigExec> = {}): KubeconfigExec {
  return {
    command: process.execPath,
    args: [PLUGIN],
    apiVersion: V1,
    interactiveMode: 'Never',
    env: Object.entries(env).map(([name, value]) => ({ name, value })),
    ...overrides,
  };
}

export function source(
  env: Record<string, string>,
  overrides: Partial<KubeconfigExec> = {},
  options: ExecCredentialSourceOptions = {},
): ExecCredentialSource {
  return execCredentialSource(pluginExec(env, overrides), CLUSTER, options);
}
