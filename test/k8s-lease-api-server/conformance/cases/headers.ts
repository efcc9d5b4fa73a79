// Response headers clients and tools read: Audit-Id (WithAuditInit), the API Priority and Fairness UIDs, the
// Retry-After of a Status that asks for one, and gzip for large resource answers.
import type { ConformanceCase, ConformanceStep } from '../case.js';

const LEASES = '/apis/coordination.k8s.io/v1/namespaces/{ns}/leases';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FLOW_SCHEMA = 'x-kubernetes-pf-flowschema-uid';
const PRIORITY_LEVEL = 'x-kubernetes-pf-prioritylevel-uid';

/** A Lease whose 200 KiB annotation (the limit is 256 KiB in all) makes every answer about it larger than 128 KiB. */
const bigLease: ConformanceStep = {
  method: 'POST',
  path: LEASES,
  body: {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'big', annotations: { big: 'x'.repeat(200 * 1024) } },
  },
  expect: { status: 201 },
};

export const cases: readonly ConformanceCase[] = [
  {
    name: 'every response carries Audit-Id: the Audit-ID the request sent, as sent, or a new UUID',
    source: 'k8s.io/apiserver/pkg/endpoints/filters/audit_init.go withAuditInit',
    steps: [
      {
        method: 'GET',
        path: LEASES,
        headers: { 'Audit-ID': 'my id 42' },
        expect: { status: 200, headers: { 'audit-id': 'my id 42' } },
      },
      { method: 'GET', path: LEASES, expect: { status: 200, headers: { 'audit-id': UUID } } },
      {
        method: 'GET',
        path: `${LEASES}/missing`,
        headers: { 'Audit-ID': '' },
        expect: { status: 404, headers: { 'audit-id': UUID } },
      },
      {
        method: 'GET',
        path: LEASES,
        headers: { Authorization: 'Bearer not-a-token', 'Audit-ID': 'refused' },
        expect: { status: 401, headers: { 'audit-id': 'refused' } },
      },
      {
        method: 'GET',
        path: '/version',
        headers: { 'Audit-ID': 'v' },
        expect: { status: 200, headers: { 'audit-id': 'v' } },
      },
    ],
  },
  {
    name: "an authenticated request is classified by APF: global-default's FlowSchema and priority level UIDs, the same every time",
    source:
      'k8s.io/apiserver/pkg/server/filters/priority-and-fairness.go (noteFn sets both headers); apis/flowcontrol/bootstrap/default.go SuggestedFlowSchemaGlobalDefault',
    steps: [
      {
        method: 'GET',
        path: LEASES,
        expect: { status: 200, headers: { [FLOW_SCHEMA]: UUID, [PRIORITY_LEVEL]: UUID } },
      },
      {
        method: 'POST',
        path: LEASES,
        body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'a' } },
        expect: {
          status: 201,
          headers: { [FLOW_SCHEMA]: `{prev.${FLOW_SCHEMA}}`, [PRIORITY_LEVEL]: `{prev.${PRIORITY_LEVEL}}` },
        },
      },
    ],
  },
  {
    name: 'APF runs after authentication and before authorization: a 403 is classified, a 401 is not',
    source:
      'k8s.io/apiserver/pkg/server/config.go DefaultBuildHandlerChain (WithAuthorization inside WithPriorityAndFairness inside WithAuthentication)',
    serverArgs: ['--forbidden-token', 'nope'],
    steps: [
      {
        method: 'GET',
        path: LEASES,
        headers: { Authorization: 'Bearer nope' },
        expect: { status: 403, headers: { [FLOW_SCHEMA]: UUID, [PRIORITY_LEVEL]: UUID } },
      },
      {
        method: 'GET',
        path: LEASES,
        headers: { Authorization: 'Bearer wrong' },
        expect: { status: 401, headers: { [FLOW_SCHEMA]: null, [PRIORITY_LEVEL]: null } },
      },
    ],
  },
  {
    name: 'a 504 Too large resource version asks the client to come back in a second: Retry-After: 1',
    source:
      'k8s.io/apiserver/pkg/storage/errors.go NewTooLargeResourceVersionError (retryAfterSeconds 1); endpoints/handlers/responsewriters/writers.go ErrorNegotiated (Retry-After from details)',
    steps: [
      {
        method: 'GET',
        path: `${LEASES}?resourceVersion=999999999`,
        expect: { status: 504, headers: { 'retry-after': '1' }, json: { details: { retryAfterSeconds: 1 } } },
      },
    ],
  },
  {
    name: 'an answer over 128 KiB is gzipped for a client that accepts gzip, with Vary: Accept-Encoding; not otherwise',
    source:
      'k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/writers.go deferredResponseWriter (defaultGzipThresholdBytes), ContentEncodingSupported',
    steps: [
      bigLease,
      {
        method: 'GET',
        path: `${LEASES}/big`,
        headers: { 'Accept-Encoding': 'gzip' },
        expect: {
          status: 200,
          headers: { 'content-encoding': 'gzip', vary: 'Accept-Encoding', 'content-length': null },
          json: { metadata: { name: 'big' } },
        },
      },
      {
        method: 'GET',
        path: LEASES,
        headers: { 'Accept-Encoding': 'gzip, deflate' },
        expect: {
          status: 200,
          headers: { 'content-encoding': 'gzip' },
          json: { items: [{ metadata: { name: 'big' } }] },
        },
      },
      {
        method: 'GET',
        path: `${LEASES}/big`,
        headers: { 'Accept-Encoding': 'identity' },
        expect: { status: 200, headers: { 'content-encoding': null }, json: { metadata: { name: 'big' } } },
      },
    ],
  },
  {
    name: 'a small answer and a watch are never gzipped',
    source:
      'k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/writers.go deferredResponseWriter; handlers/watch.go (no compression)',
    steps: [
      bigLease,
      {
        method: 'GET',
        path: `${LEASES}?watch=true&resourceVersion=0`,
        headers: { 'Accept-Encoding': 'gzip' },
        readEvents: 1,
        expect: { status: 200, headers: { 'content-encoding': null }, json: [{ type: 'ADDED' }] },
      },
      {
        method: 'GET',
        path: `${LEASES}/missing`,
        headers: { 'Accept-Encoding': 'gzip' },
        expect: { status: 404, headers: { 'content-encoding': null } },
      },
    ],
  },
];
