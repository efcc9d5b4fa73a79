// Copied by lease-api-generator from templates/node/exec/types.ts. DO NOT EDIT: edit that file and run `npm run generate`.
/** A kubeconfig `users[].user.exec` stanza (client-go's api.ExecConfig), keys already camel-cased. */
export interface KubeconfigExec {
  command: string;
  args?: string[] | undefined;
  env?: Array<{ name: string; value: string }> | undefined;
  apiVersion: string;
  installHint?: string | undefined;
  interactiveMode?: 'Never' | 'IfAvailable' | 'Always' | undefined;
  provideClusterInfo?: boolean | undefined;
}

/**
 * The kubeconfig cluster the plugin authenticates to. `certificateAuthorityData` is the kubeconfig's
 * `certificate-authority-data` (base64 of the PEM) or the PEM itself; it is handed to the plugin base64-encoded
 * either way, as client-go serialises the CA bytes.
 */
export interface ExecClusterInfo {
  server: string;
  certificateAuthorityData?: string | undefined;
  tlsServerName?: string | undefined;
  insecureSkipTlsVerify?: boolean | undefined;
  proxyUrl?: string | undefined;
}

export interface ExecCredentialSource {
  /** The plugin's bearer token (undefined when it returned only a client certificate); runs the plugin when none is cached or it expired. */
  token(): Promise<string | undefined>;
  /** The plugin's client certificate and key (PEM), when it returned them. */
  clientCertificate(): Promise<{ cert: string; key: string } | undefined>;
  /** Forgets the cached credential so that the next call runs the plugin again. */
  invalidate(): void;
}

export interface ExecCredentialSourceOptions {
  /** Relative commands containing a path separator resolve against this file's directory, as client-go does. */
  kubeconfigPath?: string | undefined;
  /** The environment the plugin inherits (default process.env); the stanza's `env` is added on top. */
  env?: NodeJS.ProcessEnv | undefined;
  /** The plugin is killed and the call fails after this long (default 30 000 ms). */
  timeoutMs?: number | undefined;
  /** The plugin is killed and the call fails when stdout grows past this (default 1 MiB). */
  maxStdoutBytes?: number | undefined;
  /** Clock for expiry decisions (default Date.now). */
  now?: (() => number) | undefined;
  /** Put before every error message, e.g. `/home/me/.kube/config: user "me"`, so the error names where the stanza is. */
  errorContext?: string | undefined;
  /** Whether our stdin is a terminal, for interactiveMode (default process.stdin.isTTY). */
  isTerminal?: (() => boolean) | undefined;
}

/** A credential as the plugin returned it; never leaves this module except through the source's accessors. */
export interface ExecCredential {
  token: string | undefined;
  certificate: { cert: string; key: string } | undefined;
  /** Epoch milliseconds; undefined when the plugin gave no expirationTimestamp (cached until invalidated). */
  expiresAt: number | undefined;
}
