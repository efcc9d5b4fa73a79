// API Priority and Fairness as clients see it: the filter (pkg/server/filters/priority-and-fairness.go) runs after
// authentication, classifies every request into the first matching FlowSchema by matchingPrecedence, and names
// the schema and its PriorityLevelConfiguration by UID in X-Kubernetes-PF-FlowSchema-UID and
// X-Kubernetes-PF-PriorityLevel-UID (Go canonicalises them to the spellings below). This server has no
// flowcontrol API and queues only large bodies, per user (body-admission.ts): it answers as a cluster with the
// bootstrap configuration (pkg/apis/flowcontrol/bootstrap/default.go) would classify, with stable made-up UIDs
// (a cluster's are random).
import { createHash } from 'node:crypto';
import { GROUP } from '../lease-meta.js';

export const FLOW_SCHEMA_UID_HEADER = 'X-Kubernetes-Pf-Flowschema-Uid';
export const PRIORITY_LEVEL_UID_HEADER = 'X-Kubernetes-Pf-Prioritylevel-Uid';

export interface FlowSubject {
  user: string;
  groups: readonly string[];
}

/** What RequestInfo says of the request: a resource (with its namespace, '' when cluster-wide) or a path. */
export type FlowRequest =
  | { kind: 'resource'; verb: string; group: string; resource: string; namespace: string }
  | { kind: 'nonResource'; verb: string; path: string };

interface FlowSchema {
  name: string;
  priorityLevel: string;
  matches(subject: FlowSubject, request: FlowRequest): boolean;
}

const KUBE_SYSTEM_SERVICE_ACCOUNT = 'system:serviceaccount:kube-system:';
const CONTROLLER_MANAGER = 'system:kube-controller-manager';
const SCHEDULER = 'system:kube-scheduler';
const EVERYONE = ['system:authenticated', 'system:unauthenticated'];

const inGroup = (subject: FlowSubject, groups: readonly string[]): boolean =>
  subject.groups.some((group) => groups.includes(group));
const kubeSystemServiceAccount = (subject: FlowSubject): boolean =>
  subject.user.startsWith(KUBE_SYSTEM_SERVICE_ACCOUNT);

/** resourceRule(…, coordination.k8s.io, leases, every namespace, clusterScope false) for `verbs` (all when undefined). */
function namespacedLeases(request: FlowRequest, verbs?: readonly string[]): boolean {
  return (
    request.kind === 'resource' &&
    request.group === GROUP &&
    request.resource === 'leases' &&
    request.namespace !== '' &&
    (verbs === undefined || verbs.includes(request.verb))
  );
}

const LEADER_ELECTION_VERBS = ['get', 'create', 'update'];
const PROBES = ['/healthz', '/readyz', '/livez'];

/** The bootstrap FlowSchemas in matchingPrecedence order (equal precedences by name, as the filter sorts them). */
const FLOW_SCHEMAS: readonly FlowSchema[] = [
  { name: 'exempt', priorityLevel: 'exempt', matches: (s) => inGroup(s, ['system:masters']) },
  {
    name: 'probes',
    priorityLevel: 'exempt',
    matches: (s, r) => inGroup(s, EVERYONE) && r.kind === 'nonResource' && r.verb === 'get' && PROBES.includes(r.path),
  },
  {
    name: 'system-leader-election',
    priorityLevel: 'leader-election',
    matches: (s, r) =>
      ([CONTROLLER_MANAGER, SCHEDULER].includes(s.user) || kubeSystemServiceAccount(s)) &&
      namespacedLeases(r, LEADER_ELECTION_VERBS),
  },
  {
    name: 'workload-leader-election',
    priorityLevel: 'leader-election',
    matches: (s, r) => kubeSystemServiceAccount(s) && namespacedLeases(r, LEADER_ELECTION_VERBS),
  },
  {
    name: 'system-node-high',
    priorityLevel: 'node-high',
    matches: (s, r) => inGroup(s, ['system:nodes']) && namespacedLeases(r),
  },
  { name: 'system-nodes', priorityLevel: 'system', matches: (s) => inGroup(s, ['system:nodes']) },
  { name: 'kube-controller-manager', priorityLevel: 'workload-high', matches: (s) => s.user === CONTROLLER_MANAGER },
  { name: 'kube-scheduler', priorityLevel: 'workload-high', matches: (s) => s.user === SCHEDULER },
  { name: 'kube-system-service-accounts', priorityLevel: 'workload-high', matches: kubeSystemServiceAccount },
  {
    name: 'service-accounts',
    priorityLevel: 'workload-low',
    matches: (s) => inGroup(s, ['system:serviceaccounts']),
  },
  { name: 'global-default', priorityLevel: 'global-default', matches: (s) => inGroup(s, EVERYONE) },
  { name: 'catch-all', priorityLevel: 'catch-all', matches: (s) => inGroup(s, EVERYONE) },
];

/** Computed once per object: there are a dozen of them and every request names two. */
const uids = new Map<string, string>();

/** A UID that stays the same across runs for the same object: a name-based (version 5 style) UUID. */
function stableUid(kind: string, name: string): string {
  const key = `${kind}/${name}`;
  const known = uids.get(key);
  if (known !== undefined) return known;
  const uid = nameBasedUid(key);
  uids.set(key, uid);
  return uid;
}

function nameBasedUid(key: string): string {
  const hex = createHash('sha1').update(`flowcontrol.apiserver.k8s.io/${key}`).digest('hex');
  const variant = ((Number.parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}

export interface Classification {
  flowSchema: string;
  priorityLevel: string;
}

/** The FlowSchema and priority level the bootstrap configuration picks; undefined only for a subject in no group. */
export function classify(subject: FlowSubject, request: FlowRequest): Classification | undefined {
  const schema = FLOW_SCHEMAS.find((candidate) => candidate.matches(subject, request));
  return schema === undefined ? undefined : { flowSchema: schema.name, priorityLevel: schema.priorityLevel };
}

/** The two response headers for a classification. */
export function flowControlHeaders(classification: Classification | undefined): Record<string, string> {
  if (classification === undefined) return {};
  return {
    [PRIORITY_LEVEL_UID_HEADER]: stableUid('prioritylevelconfigurations', classification.priorityLevel),
    [FLOW_SCHEMA_UID_HEADER]: stableUid('flowschemas', classification.flowSchema),
  };
}
