// Exec credential plugins (client.authentication.k8s.io v1 / v1beta1), run as kubectl runs them.
export type { ExecClusterInfo, ExecCredentialSource, ExecCredentialSourceOptions, KubeconfigExec } from './types.js';
export { execCredentialSource } from './source.js';
export { refreshOnUnauthorized, tokenProvider, type RefreshOptions } from './refresh.js';
export { ExecPluginError, type ExecPluginFailure } from './errors.js';
