/** An API group and one of its versions; load, IR and emitters all name it. */
export interface GroupVersion {
  readonly group: string;
  readonly version: string;
}

export function groupPathPrefix(gv: GroupVersion): string {
  return `/apis/${gv.group}/${gv.version}/`;
}

/** The version a path of `group` is under (`/apis/coordination.k8s.io/v1beta1/…` → `v1beta1`); undefined for the group's own discovery path or another group's. */
export function versionOfPath(path: string, group: string): string | undefined {
  const prefix = `/apis/${group}/`;
  if (!path.startsWith(prefix)) return undefined;
  const slash = path.indexOf('/', prefix.length);
  return slash > prefix.length ? path.slice(prefix.length, slash) : undefined;
}

/**
 * Kubernetes' version priority (apimachinery's version.CompareKubeAwareVersionStrings): GA before beta before
 * alpha, then the higher number first — v1, v1beta1, v1alpha2, v1alpha1.
 */
export function compareKubeVersions(a: string, b: string): number {
  const key = (v: string): [number, number, number] => {
    const match = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (match === null) return [3, 0, 0];
    const stage = match[2] === undefined ? 0 : match[2] === 'beta' ? 1 : 2;
    return [stage, -Number(match[1]), -Number(match[3] ?? 0)];
  };
  const [ka, kb] = [key(a), key(b)];
  for (let i = 0; i < 3; i++) if (ka[i] !== kb[i]) return ka[i]! - kb[i]!;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The namespace a group version's modules have in a release entry: none for the target's root version (its modules
 * are the release's own; the Lease API's, as before the generator covered the whole group), its version otherwise
 * (`v1beta1`: `import { v1beta1 } from 'k8s-lease-client/v1.33'`, or the subpath `k8s-lease-client/v1.33/v1beta1`).
 */
export function groupVersionNamespace(gv: { readonly version: string; readonly root: boolean }): string | undefined {
  return gv.root ? undefined : gv.version;
}
