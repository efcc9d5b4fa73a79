// Copied by lease-api-generator from templates/server/lease-meta.ts. DO NOT EDIT: edit that file and run `npm run generate`.
// Identity of the one resource this server serves, spelled the way the real API server spells it.
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

/** Prepended to a bare object's JSON so one cached serialisation serves both GET (typed) and list items (untyped). */
export const TYPE_META_PREFIX: string = `{"kind":"${KIND}","apiVersion":"${GROUP_VERSION}",`;

export function withTypeMeta(bareJson: string): string {
  return bareJson.length > 2 ? TYPE_META_PREFIX + bareJson.slice(1) : `{"kind":"${KIND}","apiVersion":"${GROUP_VERSION}"}`;
}
