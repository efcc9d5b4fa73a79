// What kube-apiserver's decoder makes of a body's kind and apiVersion (runtime/serializer/json Decode with
// the URL's GroupVersionKind as default, then the versioning codec's conversion to the internal type and
// the handler's AcceptsGroupVersion check). A missing kind or apiVersion is taken from the URL; a wrong
// one is answered with the 400 the real server sends. Hand-written Kubernetes behaviour: the scheme
// (which kinds are registered in which group version) is reduced to the groups this server knows.
import type { Result } from '../result.js';
import { err, ok } from '../result.js';

/** The type a request's URL names: its group version, kind and the Go package of its internal type. */
export interface TargetType {
  group: string;
  version: string;
  kind: string;
  /** `coordination` or `core`: conversion errors name the internal type as `<package>.<Kind>`. */
  internalPackage: string;
}

const OPTION_KINDS = [
  'WatchEvent',
  'ListOptions',
  'GetOptions',
  'DeleteOptions',
  'CreateOptions',
  'UpdateOptions',
  'PatchOptions',
];
const withLists = (kinds: string[]): string[] => kinds.flatMap((k) => [k, `${k}List`]);
const CORE_KINDS = [
  ...withLists([
    'Pod',
    'Namespace',
    'Service',
    'ConfigMap',
    'Secret',
    'Node',
    'Event',
    'Endpoints',
    'ServiceAccount',
    'PersistentVolume',
    'PersistentVolumeClaim',
    'ReplicationController',
    'LimitRange',
    'ResourceQuota',
    'PodTemplate',
    'ComponentStatus',
  ]),
  'Binding',
  'Eviction',
  'List',
  'PodStatusResult',
  'RangeAllocation',
  'SerializedReference',
  'Status',
  'APIVersions',
  'APIGroupList',
  'APIGroup',
  'APIResourceList',
];

/**
 * Registered kinds by group version in kube-apiserver's legacyscheme, for the groups this server
 * serves (LeaseCandidate's versions taken together across releases 1.31+). Kinds of other groups
 * (apps/v1 Deployment, …) are answered as unregistered here, where kube-apiserver would report a failed
 * conversion: both are 400s with different wording.
 */
const REGISTERED: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['v1', new Set([...CORE_KINDS, ...OPTION_KINDS])],
  ['coordination.k8s.io/v1', new Set([...withLists(['Lease']), ...OPTION_KINDS])],
  ['coordination.k8s.io/v1beta1', new Set([...withLists(['Lease', 'LeaseCandidate']), ...OPTION_KINDS])],
  ['coordination.k8s.io/v1alpha1', new Set([...withLists(['LeaseCandidate']), ...OPTION_KINDS])],
  ['coordination.k8s.io/v1alpha2', new Set([...withLists(['LeaseCandidate']), ...OPTION_KINDS])],
]);

const SCHEME = 'pkg/api/legacyscheme/scheme.go:30';

function groupVersionString(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/** schema.ParseGroupVersion: "" is empty, "v1" a core version, "g/v" a group version; more slashes fail. */
function parseGroupVersion(apiVersion: string): Result<{ group: string; version: string }, string> {
  if (apiVersion === '' || apiVersion === '/') return ok({ group: '', version: '' });
  const parts = apiVersion.split('/');
  if (parts.length === 1) return ok({ group: '', version: apiVersion });
  if (parts.length === 2) return ok({ group: parts[0] ?? '', version: parts[1] ?? '' });
  return err(`unexpected GroupVersion string: ${apiVersion}`);
}

/**
 * Checks a body's kind/apiVersion against the URL's type; the error is the complete 400 message.
 * Non-string values count as absent (the decoder reads them into strings and fails elsewhere).
 */
export function checkBodyType(kindValue: unknown, apiVersionValue: unknown, target: TargetType): Result<void, string> {
  const parsed = parseGroupVersion(typeof apiVersionValue === 'string' ? apiVersionValue : '');
  if (!parsed.ok) return err(`the object provided is unrecognized (must be of type ${target.kind}): ${parsed.error}`);
  // gvkWithDefaults (runtime/serializer/json): the URL's type fills in what the body leaves out.
  const kind = typeof kindValue === 'string' && kindValue !== '' ? kindValue : target.kind;
  let { group, version } = parsed.value;
  if (version === '' && group === '') ({ group, version } = target);
  else if (version === '' && group === target.group) version = target.version;
  if (kind === target.kind && group === target.group && version === target.version) return ok(undefined);
  const gv = groupVersionString(group, version);
  const prefix = `${kind} in version ${JSON.stringify(version)} cannot be handled as a ${target.kind}: `;
  if (!(REGISTERED.get(gv)?.has(kind) ?? false))
    return err(
      `${prefix}no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(gv)} in scheme ${JSON.stringify(SCHEME)}`,
    );
  if (kind !== target.kind || group !== target.group)
    return err(
      `${prefix}converting (${version}.${kind}) to (${target.internalPackage}.${target.kind}): unknown conversion`,
    );
  // Another version of the same type decodes and converts; the handler then refuses its group version.
  const expected = groupVersionString(target.group, target.version);
  return err(`the API version in the data (${gv}) does not match the expected API version (${expected})`);
}
