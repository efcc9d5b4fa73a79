// What a kubeconfig user's auth-provider is told about where it is configured: in a module of its own because both
// auth-provider.ts, which picks the provider, and each provider (oidc.ts) use it.

/** The kubeconfig user an auth-provider serves, and where that user is defined. */
export interface AuthProviderContext {
  /** The user's name in the kubeconfig (the entry the oidc provider writes refreshed tokens back into). */
  userName: string;
  /** `<file>: user "<name>"`, put before every message. */
  at: string;
  /** The kubeconfig file that defines the user. */
  origin: string;
  /** Milliseconds since the epoch, for the id-token's expiry. Default Date.now. */
  now?: (() => number) | undefined;
}
