// KUBERNETES_EXEC_INFO as client-go writes it (plugin/pkg/client/auth/exec/exec.go refreshCredsLocked, encoding/json
// of the v1/v1beta1 ExecCredential). The expected documents are exec_test.go TestRefreshCreds's wantInput, e.g.
// beta-basic-request and beta-with-cluster-and-provide-cluster-info-is-serialized (its CA bytes "baz" are "YmF6").
import { describe, expect, it } from 'vitest';
import { V1, V1BETA1 } from '../../../templates/k8s-lease-client-node/src/exec/config.js';
import { EXEC_INFO_ENV, execInfo } from '../../../templates/k8s-lease-client-node/src/exec/exec-info.js';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

describe('execInfo', () => {
  it('goes in KUBERNETES_EXEC_INFO', () => {
    expect(EXEC_INFO_ENV).toBe('KUBERNETES_EXEC_INFO');
  });

  it('without cluster info: kind, apiVersion and spec.interactive, in that order (beta-basic-request)', () => {
    expect(execInfo(V1BETA1, false, undefined)).toBe(
      '{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1beta1","spec":{"interactive":false}}',
    );
    expect(execInfo(V1, true, undefined)).toBe(
      '{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","spec":{"interactive":true}}',
    );
  });

  it('with cluster info: the cluster before interactive, CA data base64 as in the kubeconfig', () => {
    const info = execInfo(V1BETA1, false, {
      server: 'foo',
      tlsServerName: 'bar',
      certificateAuthorityData: Buffer.from('baz').toString('base64'),
    });
    expect(info).toBe(
      '{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1beta1","spec":{"cluster":{"server":"foo","tls-server-name":"bar","certificate-authority-data":"YmF6"},"interactive":false}}',
    );
  });

  it('every cluster field in the order of the Go struct; empty and false ones left out (omitempty)', () => {
    const full = JSON.parse(
      execInfo(V1, false, {
        server: 'https://k8s.example:6443',
        tlsServerName: 'k8s',
        insecureSkipTlsVerify: true,
        certificateAuthorityData: 'YmF6',
        proxyUrl: 'http://proxy:3128',
      }),
    ) as { spec: { cluster: Record<string, unknown> } };
    expect(Object.keys(full.spec.cluster)).toEqual([
      'server',
      'tls-server-name',
      'insecure-skip-tls-verify',
      'certificate-authority-data',
      'proxy-url',
    ]);
    const sparse = JSON.parse(
      execInfo(V1, false, { server: 's', tlsServerName: '', insecureSkipTlsVerify: false, proxyUrl: '' }),
    ) as { spec: { cluster: Record<string, unknown> } };
    expect(sparse.spec.cluster).toEqual({ server: 's' });
  });

  it('a PEM given directly is base64-encoded, and whitespace in base64 CA data is dropped: the plugin sees one form', () => {
    const encoded = Buffer.from(PEM).toString('base64');
    const cluster = (certificateAuthorityData: string): unknown =>
      (JSON.parse(execInfo(V1, false, { server: 's', certificateAuthorityData })) as { spec: { cluster: unknown } })
        .spec.cluster;
    expect(cluster(PEM)).toEqual({ server: 's', 'certificate-authority-data': encoded });
    expect(cluster(`${encoded.slice(0, 10)}\n ${encoded.slice(10)}`)).toEqual({
      server: 's',
      'certificate-authority-data': encoded,
    });
  });
});
