// API Priority and Fairness's classification under the bootstrap configuration
// (k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap/default.go: mandatory and suggested FlowSchemas, first match by
// matchingPrecedence) and the two response headers of pkg/server/filters/priority-and-fairness.go.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlowRequest, FlowSubject } from '../../../templates/k8s-lease-api-server/src/http/flow-control.js';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { startLeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import {
  classify,
  FLOW_SCHEMA_UID_HEADER,
  flowControlHeaders,
  PRIORITY_LEVEL_UID_HEADER,
} from '../../../templates/k8s-lease-api-server/src/http/flow-control.js';

const lease = (verb: string, namespace = 'default'): FlowRequest => ({
  kind: 'resource',
  verb,
  group: 'coordination.k8s.io',
  resource: 'leases',
  namespace,
});
const path = (p: string, verb = 'get'): FlowRequest => ({ kind: 'nonResource', verb, path: p });
const user = (name: string, ...groups: string[]): FlowSubject => ({
  user: name,
  groups: [...groups, 'system:authenticated'],
});
const ANONYMOUS: FlowSubject = { user: 'system:anonymous', groups: ['system:unauthenticated'] };

describe('classify', () => {
  it.each<[string, FlowSubject, FlowRequest, string, string]>([
    ['system:masters, anything', user('admin', 'system:masters'), lease('delete'), 'exempt', 'exempt'],
    ['a probe by anyone', ANONYMOUS, path('/readyz'), 'probes', 'exempt'],
    ['a probe that is not a GET', user('u'), path('/healthz', 'post'), 'global-default', 'global-default'],
    ['an ordinary user', user('lease-api-test-user'), lease('update'), 'global-default', 'global-default'],
    ['anonymous /version', ANONYMOUS, path('/version'), 'global-default', 'global-default'],
    [
      'the scheduler renewing its lease',
      user('system:kube-scheduler'),
      lease('update', 'kube-system'),
      'system-leader-election',
      'leader-election',
    ],
    ['the scheduler listing leases', user('system:kube-scheduler'), lease('list'), 'kube-scheduler', 'workload-high'],
    [
      'a kube-system service account taking a lease',
      user('system:serviceaccount:kube-system:x', 'system:serviceaccounts'),
      lease('create'),
      'system-leader-election',
      'leader-election',
    ],
    ['a node on leases', user('system:node:n1', 'system:nodes'), lease('patch'), 'system-node-high', 'node-high'],
    [
      'a node on the cluster-wide list (clusterScope false)',
      user('system:node:n1', 'system:nodes'),
      lease('list', ''),
      'system-nodes',
      'system',
    ],
    [
      'another service account',
      user('system:serviceaccount:apps:x', 'system:serviceaccounts'),
      lease('get'),
      'service-accounts',
      'workload-low',
    ],
  ])('%s → %s / %s', (_name, subject, request, flowSchema, priorityLevel) => {
    expect(classify(subject, request)).toEqual({ flowSchema, priorityLevel });
  });

  it('classifies nobody outside every group', () => {
    expect(classify({ user: 'x', groups: [] }, lease('get'))).toBeUndefined();
  });
});

describe('flowControlHeaders', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('names the schema and the level by stable UIDs, equal for equal names and distinct otherwise', () => {
    const global = flowControlHeaders({ flowSchema: 'global-default', priorityLevel: 'global-default' });
    const again = flowControlHeaders({ flowSchema: 'global-default', priorityLevel: 'global-default' });
    const probes = flowControlHeaders({ flowSchema: 'probes', priorityLevel: 'exempt' });
    expect(global).toStrictEqual(again);
    expect(global[FLOW_SCHEMA_UID_HEADER]).toMatch(UUID);
    expect(global[PRIORITY_LEVEL_UID_HEADER]).toMatch(UUID);
    expect(global[FLOW_SCHEMA_UID_HEADER]).not.toBe(global[PRIORITY_LEVEL_UID_HEADER]);
    expect(probes[FLOW_SCHEMA_UID_HEADER]).not.toBe(global[FLOW_SCHEMA_UID_HEADER]);
  });

  it('sends nothing for an unclassified request', () => {
    expect(flowControlHeaders(undefined)).toStrictEqual({});
  });
});

describe('the headers on answers', () => {
  let server: LeaseApiServer;
  beforeAll(async () => {
    server = await startLeaseApiServer({ port: 0, token: 't' });
  });
  afterAll(async () => {
    await server.close();
  });

  const headersOf = async (path: string, token = 't'): Promise<Record<string, string | null>> => {
    const res = await fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    return {
      status: String(res.status),
      flowSchema: res.headers.get(FLOW_SCHEMA_UID_HEADER),
      priorityLevel: res.headers.get(PRIORITY_LEVEL_UID_HEADER),
    };
  };
  const expected = (flowSchema: string, priorityLevel: string) => {
    const headers = flowControlHeaders({ flowSchema, priorityLevel });
    return { flowSchema: headers[FLOW_SCHEMA_UID_HEADER], priorityLevel: headers[PRIORITY_LEVEL_UID_HEADER] };
  };

  it('puts a probe in probes/exempt and /version and Lease requests in global-default', async () => {
    expect(await headersOf('/healthz')).toMatchObject({ status: '200', ...expected('probes', 'exempt') });
    expect(await headersOf('/version')).toMatchObject(expected('global-default', 'global-default'));
    expect(await headersOf('/apis/coordination.k8s.io/v1/namespaces/default/leases')).toMatchObject({
      status: '200',
      ...expected('global-default', 'global-default'),
    });
  });

  it('classifies nothing for a request authentication refused', async () => {
    expect(await headersOf('/apis/coordination.k8s.io/v1/leases', 'wrong')).toStrictEqual({
      status: '401',
      flowSchema: null,
      priorityLevel: null,
    });
  });
});
