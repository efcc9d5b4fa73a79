import { field } from './field.js';

/**
 * The one Lease the benchmarks' stand-in servers hold: the plain-HTTP server of `reads` and `bundle-size`
 * (lease-server.child.ts) and the HTTPS server of `tls-reads` serve it byte for byte alike.
 */
export const LEASE_NAMESPACE = 'default';
export const LEASE_NAME = 'bench';
export const LEASE_PATH = `/apis/coordination.k8s.io/v1/namespaces/${LEASE_NAMESPACE}/leases/${LEASE_NAME}`;

/** What a kube-controller-manager leader-election Lease looks like, managedFields included (~1 KB on the wire). */
export const BENCH_LEASE: Readonly<Record<string, unknown>> = {
  kind: 'Lease',
  apiVersion: 'coordination.k8s.io/v1',
  metadata: {
    name: LEASE_NAME,
    namespace: LEASE_NAMESPACE,
    uid: '6f1c2a7e-3b7d-4e3a-9a53-2f0d5b8c9e41',
    resourceVersion: '48213907',
    creationTimestamp: '2025-01-14T09:21:07Z',
    labels: { 'app.kubernetes.io/component': 'leader-election', 'app.kubernetes.io/part-of': 'bench' },
    managedFields: [
      {
        manager: 'kubectl-client-side-apply',
        operation: 'Update',
        apiVersion: 'coordination.k8s.io/v1',
        time: '2025-01-14T09:21:07Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': {
            'f:labels': { '.': {}, 'f:app.kubernetes.io/component': {}, 'f:app.kubernetes.io/part-of': {} },
          },
        },
      },
      {
        manager: 'kube-controller-manager',
        operation: 'Update',
        apiVersion: 'coordination.k8s.io/v1',
        time: '2025-11-20T08:12:44Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:spec': {
            'f:acquireTime': {},
            'f:holderIdentity': {},
            'f:leaseDurationSeconds': {},
            'f:leaseTransitions': {},
            'f:renewTime': {},
          },
        },
      },
    ],
  },
  spec: {
    holderIdentity: 'control-plane-1_0c4e1f0e-5a57-4a0b-8c1f-3d8f5b2a7c90',
    leaseDurationSeconds: 15,
    acquireTime: '2025-11-20T07:58:02.118842Z',
    renewTime: '2025-11-20T08:12:44.603127Z',
    leaseTransitions: 7,
  },
};

/** `metadata.name` of a decoded Lease body: every read client checks it once before it is timed. */
export function leaseName(body: unknown): unknown {
  return field(field(body, 'metadata'), 'name');
}
