// A kubeconfig user's `auth-provider` (client-go's rest.GetAuthProvider): oidc is supported, gcp and azure are refused
// with client-go's own removal messages, any other name is an error. Never a silent request without credentials.
import type { AuthProviderContext } from './auth-provider-context.js';
import { AuthProviderError } from './errors.js';
import type { KubeconfigAuthProvider } from './kubeconfig.js';
import { oidcTokenProvider } from './oidc.js';
import type { TokenCall } from './shared-flight.js';

/**
 * client-go's plugin/pkg/client/auth/gcp/gcp_stub.go and azure/azure_stub.go (the providers were removed in
 * client-go 1.26): their messages, the lines joined so the error stays one line.
 */
const REMOVED: ReadonlyMap<string, string> = new Map([
  [
    'gcp',
    'The gcp auth plugin has been removed. Please use the "gke-gcloud-auth-plugin" kubectl/client-go credential plugin instead. See https://cloud.google.com/blog/products/containers-kubernetes/kubectl-auth-changes-in-gke for further details',
  ],
  [
    'azure',
    'The azure auth plugin has been removed. Please use the https://github.com/Azure/kubelogin kubectl/client-go credential plugin instead. See https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins for further details',
  ],
]);

/** The bearer-token provider of the auth-provider, or an AuthProviderError when there can be none. */
export function authProviderToken(
  provider: KubeconfigAuthProvider,
  context: AuthProviderContext,
): (call?: TokenCall) => Promise<string> {
  const { name } = provider;
  if (name === 'oidc') return oidcTokenProvider(provider.config, context);
  const removed = REMOVED.get(name);
  if (removed !== undefined) throw new AuthProviderError(`${context.at}: ${removed}`, name, context.origin);
  // rest.GetAuthProvider: `no Auth Provider found for name "<name>"`.
  throw new AuthProviderError(
    `${context.at}: no Auth Provider found for name ${JSON.stringify(name)} (only oidc is supported; use an exec credential plugin)`,
    name,
    context.origin,
  );
}
