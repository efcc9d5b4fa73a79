// A kubeconfig user's auth-provider other than oidc (oidc.test.ts): gcp and azure refused with client-go's
// gcp_stub.go / azure_stub.go messages, any other name as rest.GetAuthProvider.
import { describe, expect, it } from 'vitest';
import { AuthProviderError } from '../../templates/k8s-lease-client-node/src/errors.js';
import { kubeconfigClientOptions } from '../../templates/k8s-lease-client-node/src/client-config.js';
import { kubeconfigWith } from './helpers.js';

describe('other auth-providers', () => {
  it.each([
    [
      'gcp',
      'The gcp auth plugin has been removed. Please use the "gke-gcloud-auth-plugin" kubectl/client-go credential plugin instead. See https://cloud.google.com/blog/products/containers-kubernetes/kubectl-auth-changes-in-gke for further details',
    ],
    [
      'azure',
      'The azure auth plugin has been removed. Please use the https://github.com/Azure/kubelogin kubectl/client-go credential plugin instead. See https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins for further details',
    ],
    [
      'openstack',
      'no Auth Provider found for name "openstack" (only oidc is supported; use an exec credential plugin)',
    ],
  ])('refuses %s with one line naming the user', async (name, message) => {
    const path = await kubeconfigWith({ url: 'https://127.0.0.1:1' }, { name, config: { 'access-token': 'x' } });
    const error = await kubeconfigClientOptions({ kubeconfig: path }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthProviderError);
    expect((error as AuthProviderError).provider).toBe(name);
    expect((error as Error).message).toBe(`${path}: user "oidc-user": ${message}`);
  });
});
