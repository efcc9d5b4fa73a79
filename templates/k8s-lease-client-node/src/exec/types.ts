/** A kubeconfig `users[].user.exec` stanza (client-go's api.ExecConfig), keys already camel-cased. */
export interface KubeconfigExec {
  /** The plugin to run: a name looked up in PATH, or a path (relative ones against the kubeconfig's directory). */
  command: string;
  /** Arguments passed to the plugin. */
  args?: string[] | undefined;
  /** Variables added to the plugin's environment. */
  env?: Array<{ name: string; value: string }> | undefined;
  /** The ExecCredential version the plugin speaks: `client.authentication.k8s.io/v1` or `v1beta1`. */
  apiVersion: string;
  /** Shown when the command is not found, e.g. how to install it. */
  installHint?: string | undefined;
  /** Whether the plugin may prompt on the terminal; required with `v1`. */
  interactiveMode?: 'Never' | 'IfAvailable' | 'Always' | undefined;
  /** Pass the cluster's details to the plugin in KUBERNETES_EXEC_INFO. */
  provideClusterInfo?: boolean | undefined;
}

/**
 * The kubeconfig cluster the plugin authenticates to. `certificateAuthorityData` is the kubeconfig's
 * `certificate-authority-data` (base64 of the PEM) or the PEM itself; it is handed to the plugin base64-encoded
 * either way, as client-go serialises the CA bytes.
 */
export interface ExecClusterInfo {
  /** The API server's URL. */
  server: string;
  /** The cluster's CA (base64 of the PEM, or the PEM). */
  certificateAuthorityData?: string | undefined;
  /** The kubeconfig's `tls-server-name`. */
  tlsServerName?: string | undefined;
  /** The kubeconfig's `insecure-skip-tls-verify`. */
  insecureSkipTlsVerify?: boolean | undefined;
  /** The kubeconfig's `proxy-url`. */
  proxyUrl?: string | undefined;
}

/** Credentials from an exec plugin, run on demand and cached until they expire; made by `execCredentialSource`. */
export interface ExecCredentialSource {
  /** The plugin's bearer token (undefined when it returned only a client certificate); runs the plugin when none is cached or it expired. */
  token(): Promise<string | undefined>;
  /** The plugin's client certificate and key (PEM), when it returned them. */
  clientCertificate(): Promise<{ cert: string; key: string } | undefined>;
  /** Forgets the cached credential so that the next call runs the plugin again. */
  invalidate(): void;
}

/** Options of `execCredentialSource`: where the stanza came from, the plugin's environment, and its limits. */
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
