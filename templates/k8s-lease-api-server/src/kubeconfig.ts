// A kubeconfig for kubectl and client libraries (clientcmd's v1 Config), written by the yaml library.
import { stringify } from 'yaml';

export interface KubeconfigInput {
  server: string;
  name: string;
  namespace: string;
  certificateAuthority?: string | undefined;
  token?: string | undefined;
  clientCertificate?: string | undefined;
  clientKey?: string | undefined;
}

const b64 = (pem: string): string => Buffer.from(pem, 'utf8').toString('base64');

export function renderKubeconfig(input: KubeconfigInput): string {
  const cluster: Record<string, string> = { server: input.server };
  if (input.certificateAuthority !== undefined) cluster['certificate-authority-data'] = b64(input.certificateAuthority);
  const user: Record<string, string> = {};
  if (input.token !== undefined) user['token'] = input.token;
  if (input.clientCertificate !== undefined) user['client-certificate-data'] = b64(input.clientCertificate);
  if (input.clientKey !== undefined) user['client-key-data'] = b64(input.clientKey);
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: input.name, cluster }],
    contexts: [{ name: input.name, context: { cluster: input.name, user: input.name, namespace: input.namespace } }],
    'current-context': input.name,
    users: [{ name: input.name, user }],
    preferences: {},
  };
  // Every value double-quoted: kubectl reads YAML 1.1 (go-yaml), where a plain `yes` or `0o12` in a token
  // would not be a string. Base64 stays on one line.
  return stringify(config, { lineWidth: 0, defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN' });
}
