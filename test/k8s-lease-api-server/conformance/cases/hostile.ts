// Hostile bodies against the packed server: limits kube-apiserver (and the libraries it reads bodies with)
// applies, and the bounds this server adds where upstream has none (each case says which).
import type { ConformanceCase } from '../case.js';

const LEASES = '/apis/coordination.k8s.io/v1/namespaces/{ns}/leases';
const YAML = { 'Content-Type': 'application/yaml' };

const laughs = (): string => {
  const rows = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
  for (let i = 1; i < names.length; i++)
    rows.push(
      `${names[i]}: &${names[i]} [${Array(9)
        .fill(`*${names[i - 1]}`)
        .join(',')}]`,
    );
  return `apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: lol\nspec:\n  extra:\n    ${rows.join('\n    ')}\n`;
};

export const cases: readonly ConformanceCase[] = [
  {
    name: 'a body past 3 MiB is 413 RequestEntityTooLarge with Connection: close',
    source:
      'k8s.io/apiserver/pkg/endpoints/handlers/rest.go limitedReadBody (NewRequestEntityTooLargeError); net/http server.go (closeAfterReply → "Connection: close")',
    steps: [
      {
        method: 'POST',
        path: LEASES,
        headers: { 'Content-Type': 'application/json' },
        body: ' '.repeat(3 * 1024 * 1024 + 1),
        expect: {
          status: 413,
          headers: { connection: 'close' },
          json: { reason: 'RequestEntityTooLarge', message: 'Request entity too large: limit is 3145728' },
        },
      },
    ],
  },
  {
    name: 'a Namespace body past 1.5 MiB is 413 RequestEntityTooLarge with Connection: close (this server’s bound)',
    source:
      'k8s.io/apiserver/pkg/endpoints/handlers/rest.go limitedReadBody (NewRequestEntityTooLargeError "limit is N"); the limit is etcd’s --max-request-bytes default, which upstream applies only to the stored object (500)',
    steps: [
      {
        method: 'POST',
        path: '/api/v1/namespaces',
        headers: YAML,
        body: `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: big\n${' '.repeat(1.5 * 1024 * 1024)}`,
        expect: {
          status: 413,
          headers: { connection: 'close' },
          json: { reason: 'RequestEntityTooLarge', message: 'Request entity too large: limit is 1572864' },
        },
      },
    ],
  },
  {
    name: 'a YAML alias bomb is 400: go-yaml refuses excessive aliasing',
    source:
      'go.yaml.in/yaml/v2 decode.go decoder.unmarshal (allowedAliasRatio, failf("document contains excessive aliasing"))',
    steps: [
      {
        method: 'POST',
        path: LEASES,
        headers: YAML,
        body: laughs(),
        expect: {
          status: 400,
          json: { message: "couldn't get version/kind; yaml parse error: yaml: document contains excessive aliasing" },
        },
      },
    ],
  },
  {
    name: 'a YAML anchor that contains itself is 400',
    source: 'go.yaml.in/yaml/v2 decode.go decoder.alias (failf("anchor \'%s\' value contains itself"))',
    steps: [
      {
        method: 'POST',
        path: LEASES,
        headers: YAML,
        body: 'apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: self\nspec:\n  extra: &a [1, *a]\n',
        expect: {
          status: 400,
          json: { message: "couldn't get version/kind; yaml parse error: yaml: anchor 'a' value contains itself" },
        },
      },
    ],
  },
  {
    name: 'a 3 MiB invalid name is a 422 of a few KB: quoted values are cut past 4096 characters (this server’s bound)',
    source:
      'k8s.io/apimachinery/pkg/util/validation/field/errors.go Error.ErrorBody and pkg/api/errors NewInvalid quote values whole (a 12 MB reply); this server deliberately cuts them',
    steps: [
      {
        method: 'POST',
        path: LEASES,
        body: {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name: 'x'.repeat(3 * 1024 * 1024 - 200) },
        },
        expect: {
          status: 422,
          json: { reason: 'Invalid', details: { causes: [{ field: 'metadata.name' }] } },
          check: (response) => {
            if (response.bytes.length > 64 * 1024) throw new Error(`a ${response.bytes.length}-byte reply`);
          },
        },
      },
    ],
  },
  {
    name: 'a 3 MiB YAML create of small nodes is decoded and answered 201, its unknown field warned about',
    source:
      'k8s.io/apiserver/pkg/endpoints/handlers/create.go createHandler (3 MiB MaxRequestBodyBytes; Warn by default)',
    steps: [
      {
        method: 'POST',
        path: LEASES,
        headers: YAML,
        body: (() => {
          const rows = [
            'apiVersion: coordination.k8s.io/v1',
            'kind: Lease',
            'metadata:',
            '  name: big',
            'spec:',
            '  extra:',
          ];
          const value = 'x'.repeat(100);
          let size = rows.join('\n').length;
          for (let i = 0; size < 3 * 1024 * 1024 - 1024; i++) {
            rows.push(`    k${i}: ${value}`);
            size += (rows[rows.length - 1] ?? '').length + 1;
          }
          return `${rows.join('\n')}\n`;
        })(),
        expect: { status: 201, headers: { warning: '299 - "unknown field \\"spec.extra\\""' } },
      },
    ],
  },
];
