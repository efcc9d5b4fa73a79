/**
 * Where a group version's modules sit below `src/`: the Lease API's in the release folder (`v1_33/`), the
 * group's other versions one folder deeper (`v1_33/v1beta1/`). Emitters write runtime imports as seen from
 * the release folder (`../runtime/…`); `relocateRuntime` rewrites them for the module's own place.
 */
export interface ModulePlace {
  /** Module specifier of the runtime folder from the module's folder, without the trailing slash. */
  readonly runtime: string;
}

/** The folder below `src/` of a group version's modules: `v1_33` for the Lease API, `v1_33/v1beta1` for another. */
export function groupVersionFolder(releaseDir: string, namespace: string | undefined): string {
  return namespace === undefined ? releaseDir : `${releaseDir}/${namespace}`;
}

export const RELEASE_FOLDER: ModulePlace = { runtime: '../runtime' };
export const GROUP_VERSION_FOLDER: ModulePlace = { runtime: '../../runtime' };

const AS_WRITTEN = '../runtime/';

/** A runtime module specifier as written by an emitter (`../runtime/x.js`), for a module at `place`. */
export function relocateRuntime(moduleSpecifier: string, place: ModulePlace): string {
  return moduleSpecifier.startsWith(AS_WRITTEN)
    ? `${place.runtime}/${moduleSpecifier.slice(AS_WRITTEN.length)}`
    : moduleSpecifier;
}
