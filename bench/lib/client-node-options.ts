/**
 * What `KubeConfig.loadFromOptions` gets wherever a benchmark configures @kubernetes/client-node (1.x or
 * 2.x) against a stand-in server on loopback: one cluster at `baseUrl`, a user without credentials, and
 * the context naming both, as a kubeconfig pointing at the server would.
 */
export function clientNodeOptions(baseUrl: string) {
  return {
    clusters: [{ name: 'bench', server: baseUrl, skipTLSVerify: true }],
    users: [{ name: 'bench' }],
    contexts: [{ name: 'bench', cluster: 'bench', user: 'bench' }],
    currentContext: 'bench',
  } as const;
}
