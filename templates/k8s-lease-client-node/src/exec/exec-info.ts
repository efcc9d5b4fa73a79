import type { ExecApiVersion } from './config.js';
import type { ExecClusterInfo } from './types.js';

export const EXEC_INFO_ENV = 'KUBERNETES_EXEC_INFO';

/**
 * The kubeconfig holds the CA as base64 and client-go hands the decoded bytes to encoding/json, which base64-encodes
 * them again: the plugin sees the same base64. A PEM given directly is encoded the same way.
 */
function caData(value: string): string {
  if (value.includes('-----BEGIN')) return Buffer.from(value, 'utf8').toString('base64');
  return Buffer.from(value.replace(/\s+/g, ''), 'base64').toString('base64');
}

/**
 * The ExecCredential client-go puts in KUBERNETES_EXEC_INFO (exec.go refreshCredsLocked): keys in the order Go's
 * encoding/json writes the v1/v1beta1 struct fields, omitempty fields left out, cluster only with provideClusterInfo.
 */
export function execInfo(
  apiVersion: ExecApiVersion,
  interactive: boolean,
  cluster: ExecClusterInfo | undefined,
): string {
  const spec: Record<string, unknown> = {};
  if (cluster) {
    const c: Record<string, unknown> = { server: cluster.server };
    if (cluster.tlsServerName) c['tls-server-name'] = cluster.tlsServerName;
    if (cluster.insecureSkipTlsVerify === true) c['insecure-skip-tls-verify'] = true;
    if (cluster.certificateAuthorityData) c['certificate-authority-data'] = caData(cluster.certificateAuthorityData);
    if (cluster.proxyUrl) c['proxy-url'] = cluster.proxyUrl;
    spec['cluster'] = c;
  }
  spec['interactive'] = interactive;
  return JSON.stringify({ kind: 'ExecCredential', apiVersion, spec });
}
