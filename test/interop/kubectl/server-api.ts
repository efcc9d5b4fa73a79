// A second client beside kubectl for the conformance tests: reads and writes Leases over HTTPS with the
// server, CA and credentials of a kubeconfig the packaged server wrote (the test cannot reach into the
// server process's store).
import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { parse, stringify } from 'yaml';
import type { Lease } from '../../../templates/k8s-lease-api-server/src/index.js';

export interface ServerApi {
  /** The Lease (in namespace default unless given), or undefined on 404. */
  get(name: string, namespace?: string): Promise<Lease | undefined>;
  create(lease: Lease): Promise<Lease>;
  /** A merge patch of spec.holderIdentity; resolves with the HTTP status. */
  patchHolder(name: string, holder: string): Promise<number>;
}

interface Credentials {
  server: string;
  ca: string;
  token?: string;
  cert?: string;
  key?: string;
}

const fromBase64 = (value: unknown): string | undefined =>
  typeof value === 'string' ? Buffer.from(value, 'base64').toString('utf8') : undefined;

function credentials(kubeconfig: string): Credentials {
  const config = parse(readFileSync(kubeconfig, 'utf8')) as {
    clusters: Array<{ cluster: Record<string, unknown> }>;
    users: Array<{ user: Record<string, unknown> }>;
  };
  const cluster = config.clusters[0]!.cluster;
  const user = config.users[0]!.user;
  const result: Credentials = {
    server: String(cluster['server']),
    ca: fromBase64(cluster['certificate-authority-data']) ?? '',
  };
  if (typeof user['token'] === 'string') result.token = user['token'];
  const cert = fromBase64(user['client-certificate-data']);
  const key = fromBase64(user['client-key-data']);
  if (cert !== undefined && key !== undefined) Object.assign(result, { cert, key });
  return result;
}

export function serverApi(kubeconfig: string): ServerApi {
  const creds = credentials(kubeconfig);
  const leases = (namespace: string): string =>
    `${creds.server}/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases`;
  const collection = leases('default');
  const send = (
    method: string,
    url: string,
    contentType?: string,
    body?: string,
  ): Promise<{ status: number; text: string }> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = {};
      if (creds.token !== undefined) headers['Authorization'] = `Bearer ${creds.token}`;
      if (contentType !== undefined) headers['Content-Type'] = contentType;
      const req = httpsRequest(url, { method, ca: creds.ca, cert: creds.cert, key: creds.key, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.end(body);
    });
  return {
    async get(name, namespace = 'default') {
      const res = await send('GET', `${leases(namespace)}/${name}`);
      if (res.status === 404) return undefined;
      if (res.status !== 200) throw new Error(`GET ${name}: ${res.status} ${res.text}`);
      return JSON.parse(res.text) as Lease;
    },
    async create(lease) {
      const res = await send('POST', collection, 'application/json', JSON.stringify(lease));
      if (res.status !== 201) throw new Error(`POST: ${res.status} ${res.text}`);
      return JSON.parse(res.text) as Lease;
    },
    async patchHolder(name, holder) {
      return (
        await send(
          'PATCH',
          `${collection}/${name}`,
          'application/merge-patch+json',
          JSON.stringify({ spec: { holderIdentity: holder } }),
        )
      ).status;
    },
  };
}

/** The same kubeconfig with the user's client certificate and key removed (token only). */
export function withoutClientCertificate(kubeconfig: string): string {
  const config = parse(kubeconfig) as { users: Array<{ user: Record<string, unknown> }> };
  for (const { user } of config.users) {
    delete user['client-certificate-data'];
    delete user['client-key-data'];
  }
  return stringify(config);
}
