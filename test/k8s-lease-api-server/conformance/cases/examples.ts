// Reads and writes that already behaved as kube-apiserver's; the catalogue's first rows.
import type { ConformanceCase } from '../case.js';

const lease = (name: string, holder = 'alice') => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name },
  spec: { holderIdentity: holder, leaseDurationSeconds: 15 },
});

export const cases: readonly ConformanceCase[] = [
  {
    name: 'create answers 201 with the stored Lease',
    source: 'k8s.io/apiserver/pkg/endpoints/handlers/create.go createHandler (201 Created on a new object)',
    steps: [
      {
        method: 'POST',
        path: '/apis/coordination.k8s.io/v1/namespaces/{ns}/leases',
        body: lease('a'),
        expect: { status: 201, json: { kind: 'Lease', metadata: { name: 'a', namespace: '{ns}' } } },
      },
    ],
  },
  {
    name: 'a read of a missing Lease is 404 NotFound with the resource in the message',
    source: 'k8s.io/apimachinery/pkg/api/errors/errors.go NewNotFound',
    steps: [
      {
        method: 'GET',
        path: '/apis/coordination.k8s.io/v1/namespaces/{ns}/leases/missing',
        expect: {
          status: 404,
          json: {
            kind: 'Status',
            reason: 'NotFound',
            message: 'leases.coordination.k8s.io "missing" not found',
            code: 404,
          },
        },
      },
    ],
  },
];
