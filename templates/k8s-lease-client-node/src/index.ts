/**
 * Node-only cluster access for k8s-lease-client: client options from a kubeconfig (kubectl's rules) or a Pod's
 * service account, TLS and client certificates over an undici connection pool, exec credential plugins, OIDC.
 *
 * @packageDocumentation
 */
export {
  clientConfigFromKubeconfig,
  inClusterClientOptions,
  kubeconfigClientOptions,
  loadClientConfig,
  SERVICE_ACCOUNT_ROOT,
} from './client-config.js';
export type {
  ApiTransportOptions,
  InClusterOptions,
  KubeconfigClientOptions,
  NodeClientConfig,
  WarningOptions,
} from './client-config.js';
export { execCredentialSource, ExecPluginError, refreshOnUnauthorized, tokenProvider } from './exec/index.js';
export type {
  ExecClusterInfo,
  ExecCredentialSource,
  ExecCredentialSourceOptions,
  ExecPluginFailure,
  KubeconfigExec,
  RefreshOptions,
} from './exec/index.js';
export {
  AuthProviderError,
  AuthProviderTimeoutError,
  ClusterConnectionError,
  InClusterConfigError,
  KubeconfigError,
} from './errors.js';
export { nodeFetch } from './fetch.js';
export type { NodeFetch, NodeFetchOptions, NodeTlsOptions } from './fetch.js';
export { loadKubeconfig } from './kubeconfig.js';
export type {
  Kubeconfig,
  KubeconfigAuthProvider,
  KubeconfigCluster,
  KubeconfigContext,
  KubeconfigUser,
  LoadKubeconfigOptions,
} from './kubeconfig.js';
export type { ImpersonationHeaders } from './impersonation.js';
export { fileTokenProvider } from './token-file.js';
export { proxyFromEnvironment } from './proxy-env.js';
