// Identity of the resources this server serves (the Lease; LeaseCandidate in candidates/), spelled the way the real API server spells it.
export const GROUP = 'coordination.k8s.io';
export const VERSION = 'v1';
export const GROUP_VERSION: string = `${GROUP}/${VERSION}`;
export const KIND = 'Lease';
export const LIST_KIND = 'LeaseList';
export const RESOURCE = 'leases';
export const SINGULAR = 'lease';
export const QUALIFIED_RESOURCE: string = `${RESOURCE}.${GROUP}`;
export const QUALIFIED_KIND: string = `${KIND}.${GROUP}`;
export const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] as const;
export const API_PREFIX: string = `/apis/${GROUP}/${VERSION}`;

/**
 * One served resource in one group version: what request paths, type meta, Status messages and
 * discovery say about it. The Lease is one; LeaseCandidate (candidates/) adds one per served version.
 */
export interface ResourceInfo {
  version: string;
  groupVersion: string;
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  qualifiedResource: string;
  qualifiedKind: string;
  /** `{"kind":…,"apiVersion":…,`, prepended to a bare object's JSON so one cached serialisation serves GET (typed) and list items (untyped). */
  typeMetaPrefix: string;
}

export function resourceInfo(version: string, kind: string, plural: string): ResourceInfo {
  const groupVersion = `${GROUP}/${version}`;
  return {
    version,
    groupVersion,
    kind,
    listKind: `${kind}List`,
    plural,
    singular: kind.toLowerCase(),
    qualifiedResource: `${plural}.${GROUP}`,
    qualifiedKind: `${kind}.${GROUP}`,
    typeMetaPrefix: `{"kind":"${kind}","apiVersion":"${groupVersion}",`,
  };
}

export const LEASE_RESOURCE: ResourceInfo = resourceInfo(VERSION, KIND, RESOURCE);
