// Typed errors of the package. Messages are one line, name the file and the key, and never carry a credential.

/** A kubeconfig (or in-cluster mount) that cannot be used: unreadable, malformed, or missing what is needed. */
export class KubeconfigError extends Error {
  override readonly name: string = 'KubeconfigError';
  /** The file at fault, when one is. */
  readonly file: string | undefined;
  constructor(message: string, file?: string, options?: ErrorOptions) {
    super(message, options);
    this.file = file;
  }
}

/** The in-cluster environment cannot be used: a KUBERNETES_SERVICE_* variable missing or not a host / port. */
export class InClusterConfigError extends KubeconfigError {
  override readonly name = 'InClusterConfigError';
  /** The environment variable at fault (its value is never echoed: it is not ours to print). */
  readonly variable: string;
  constructor(message: string, variable: string) {
    super(message);
    this.variable = variable;
  }
}

/** An auth-provider that cannot give a credential: unsupported or removed, misconfigured, or its refresh failed. */
export class AuthProviderError extends KubeconfigError {
  override readonly name: string = 'AuthProviderError';
  /** The provider's name (`oidc`, `gcp`, …). */
  readonly provider: string;
  constructor(message: string, provider: string, file?: string, options?: ErrorOptions) {
    super(message, file, options);
    this.provider = provider;
  }
}

/**
 * An auth-provider's issuer (OIDC discovery or its token endpoint) did not answer within the request's `timeoutMs`.
 * `issuer` is the configured issuer URL without user-info, query or fragment, so no credential can ride along.
 */
export class AuthProviderTimeoutError extends AuthProviderError {
  override readonly name = 'AuthProviderTimeoutError';
  /** The issuer that did not answer: scheme, host, port and path only. */
  readonly issuer: string;
  /** The request's timeout that ran out, in ms. */
  readonly timeoutMs: number;
  constructor(message: string, provider: string, issuer: string, timeoutMs: number, file?: string) {
    super(message, provider, file);
    this.issuer = issuer;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The cluster could not be reached or its certificate not verified. A TypeError as fetch's own network
 * errors are, so code that retries network failures treats it the same.
 */
export class ClusterConnectionError extends TypeError {
  override readonly name = 'ClusterConnectionError';
  /** The undici/Node error code, e.g. UNABLE_TO_VERIFY_LEAF_SIGNATURE or ECONNREFUSED. */
  readonly code: string | undefined;
  constructor(message: string, code: string | undefined, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/** Node error codes (`err.code`) without assuming the shape of what was thrown. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
