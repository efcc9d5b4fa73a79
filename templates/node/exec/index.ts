// Stub of the exec credential plugin module; another engineer's implementation replaces this file at merge.
// The exports below are the agreed interface, kept exactly.

export interface KubeconfigExec {
  command: string;
  args?: string[];
  env?: Array<{ name: string; value: string }>;
  apiVersion: string;
  installHint?: string;
  interactiveMode?: 'Never' | 'IfAvailable' | 'Always';
  provideClusterInfo?: boolean;
}

export interface ExecClusterInfo {
  server: string;
  certificateAuthorityData?: string;
  tlsServerName?: string;
  insecureSkipTlsVerify?: boolean;
  proxyUrl?: string;
}

export interface ExecCredentialSource {
  token(): Promise<string | undefined>;
  clientCertificate(): Promise<{ cert: string; key: string } | undefined>;
  invalidate(): void;
}

export function execCredentialSource(_exec: KubeconfigExec, _cluster: ExecClusterInfo, _options?: { kubeconfigPath?: string; env?: NodeJS.ProcessEnv }): ExecCredentialSource {
  throw new Error('exec credential plugins: not implemented yet');
}

export function refreshOnUnauthorized(_fetch: typeof globalThis.fetch, _source: ExecCredentialSource): typeof globalThis.fetch {
  throw new Error('exec credential plugins: not implemented yet');
}
