// The kubeconfig the CLI writes: clientcmd's v1 Config (k8s.io/client-go/tools/clientcmd/api/v1 types.go: clusters
// with certificate-authority-data, users with token or client-certificate-data / client-key-data as base64, one
// context with its namespace, current-context), every string double-quoted so go-yaml's YAML 1.1 keeps it a string.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderKubeconfig } from '../../templates/k8s-lease-api-server/src/kubeconfig.js';

describe('renderKubeconfig', () => {
  it('writes one cluster, user and context of the given name', () => {
    const text = renderKubeconfig({
      server: 'https://127.0.0.1:6443',
      name: 'lease-api',
      namespace: 'default',
      certificateAuthority: '-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n',
      token: 'yes',
    });
    expect(parse(text)).toEqual({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'lease-api',
          cluster: {
            server: 'https://127.0.0.1:6443',
            'certificate-authority-data': Buffer.from(
              '-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n',
            ).toString('base64'),
          },
        },
      ],
      contexts: [{ name: 'lease-api', context: { cluster: 'lease-api', user: 'lease-api', namespace: 'default' } }],
      'current-context': 'lease-api',
      users: [{ name: 'lease-api', user: { token: 'yes' } }],
      preferences: {},
    });
    // go-yaml (YAML 1.1) would read a plain yes as a boolean.
    expect(text).toContain('token: "yes"');
  });

  it('carries a client certificate and key as base64 on one line, and no token when none is given', () => {
    const cert = `-----BEGIN CERTIFICATE-----\n${'A'.repeat(200)}\n-----END CERTIFICATE-----\n`;
    const text = renderKubeconfig({
      server: 'http://127.0.0.1:1',
      name: 'n',
      namespace: 'ns',
      clientCertificate: cert,
      clientKey: 'KEY',
    });
    expect(parse(text).users).toEqual([
      {
        name: 'n',
        user: {
          'client-certificate-data': Buffer.from(cert).toString('base64'),
          'client-key-data': Buffer.from('KEY').toString('base64'),
        },
      },
    ]);
    expect(text).toContain(`client-certificate-data: "${Buffer.from(cert).toString('base64')}"\n`);
    expect(parse(text).clusters[0].cluster).toEqual({ server: 'http://127.0.0.1:1' });
  });
});
