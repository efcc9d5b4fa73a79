import { isJsonObject, type JsonObject } from '../shared/json.js';
import { groupPathPrefix, type GroupVersion } from '../shared/group-version.js';
import { coversKind, type GenerationTarget } from '../shared/target.js';
import type { ResourceIr } from './types.js';

/** Where a path of a group version points: its segments below the version, without `watch/` and `namespaces/{namespace}/`. */
interface PathPlace {
  readonly segments: readonly string[];
  readonly namespaced: boolean;
}

function placeOf(path: string, gv: GroupVersion): PathPlace | undefined {
  const prefix = groupPathPrefix(gv);
  if (!path.startsWith(prefix)) return undefined;
  let segments = path.slice(prefix.length).split('/').filter(Boolean);
  // The deprecated watch paths repeat the list and object paths below `watch/`.
  if (segments[0] === 'watch') segments = segments.slice(1);
  const namespaced = segments[0] === 'namespaces' && segments[1] === '{namespace}';
  return { segments: namespaced ? segments.slice(2) : segments, namespaced };
}

/** The resource (its plural) a path acts on: `…/namespaces/{namespace}/leases/{name}` → `leases`; undefined for the group version's discovery path. */
export function resourceOfPath(path: string, gv: GroupVersion): string | undefined {
  return placeOf(path, gv)?.segments[0];
}

/**
 * The resources a group version serves, read from its paths as kube-apiserver's installer lays them out
 * (apiserver's endpoints/installer.go, registerResourceHandlers): a namespaced resource has its paths under
 * `namespaces/{namespace}/` (and a list across namespaces beside them), a cluster-scoped one has none. The kind is
 * the `x-kubernetes-group-version-kind` of the collection and object operations; a subresource's names its own
 * (autoscaling's Scale), so it is not asked.
 */
export function buildResources(document: JsonObject, gv: GroupVersion): ResourceIr[] {
  const paths = isJsonObject(document['paths']) ? document['paths'] : {};
  const byPlural = new Map<string, { kind: string | undefined; namespaced: boolean }>();
  for (const path of Object.keys(paths).sort()) {
    const place = placeOf(path, gv);
    const plural = place?.segments[0];
    if (place === undefined || plural === undefined) continue;
    const known = byPlural.get(plural);
    const objectOrCollection =
      place.segments.length === 1 || (place.segments.length === 2 && place.segments[1]!.startsWith('{'));
    byPlural.set(plural, {
      kind: known?.kind ?? (objectOrCollection ? kindOfPathItem(paths[path], gv) : undefined),
      namespaced: (known?.namespaced ?? false) || place.namespaced,
    });
  }
  return [...byPlural]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([plural, facts]) => ({ plural, ...facts }));
}

function kindOfPathItem(item: unknown, gv: GroupVersion): string | undefined {
  if (!isJsonObject(item)) return undefined;
  for (const operation of Object.values(item)) {
    const gvk = isJsonObject(operation) ? operation['x-kubernetes-group-version-kind'] : undefined;
    if (
      isJsonObject(gvk) &&
      gvk['group'] === gv.group &&
      gvk['version'] === gv.version &&
      typeof gvk['kind'] === 'string'
    )
      return gvk['kind'];
  }
  return undefined;
}

/**
 * The path items of a group version the target covers, sorted: a path belongs to one resource, so it is covered
 * when the resource's kind is (the discovery path, and a resource whose kind the spec does not name, always are).
 */
export function coveredPathItems(
  document: JsonObject,
  gv: GroupVersion,
  resources: readonly ResourceIr[],
  target: GenerationTarget,
): Array<{ readonly path: string; readonly item: JsonObject }> {
  const paths = isJsonObject(document['paths']) ? document['paths'] : {};
  const prefix = groupPathPrefix(gv);
  return Object.keys(paths)
    .filter((path) => path.startsWith(prefix))
    .sort()
    .flatMap((path) => {
      const item = paths[path];
      const plural = resourceOfPath(path, gv);
      const kind = resources.find((r) => r.plural === plural)?.kind;
      return isJsonObject(item) && coversKind(target, kind) ? [{ path, item }] : [];
    });
}
