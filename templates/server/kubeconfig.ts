// A kubeconfig for kubectl and client libraries, as YAML text (JSON-style quoting keeps it unambiguous).
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
const q = (value: string): string => JSON.stringify(value);

export function renderKubeconfig(input: KubeconfigInput): string {
  const cluster = [`    server: ${q(input.server)}`];
  if (input.certificateAuthority !== undefined) cluster.push(`    certificate-authority-data: ${b64(input.certificateAuthority)}`);
  const user: string[] = [];
  if (input.token !== undefined) user.push(`    token: ${q(input.token)}`);
  if (input.clientCertificate !== undefined) user.push(`    client-certificate-data: ${b64(input.clientCertificate)}`);
  if (input.clientKey !== undefined) user.push(`    client-key-data: ${b64(input.clientKey)}`);
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: ${q(input.name)}`,
    '  cluster:',
    ...cluster,
    'contexts:',
    `- name: ${q(input.name)}`,
    '  context:',
    `    cluster: ${q(input.name)}`,
    `    user: ${q(input.name)}`,
    `    namespace: ${q(input.namespace)}`,
    `current-context: ${q(input.name)}`,
    'users:',
    `- name: ${q(input.name)}`,
    user.length === 0 ? '  user: {}' : '  user:',
    ...user,
    'preferences: {}',
    '',
  ].join('\n');
}
