import type { ReleaseIr } from '../ir/types.js';
import { groupVersionNamespace } from '../shared/group-version.js';
import { releaseModuleName } from '../shared/release-names.js';
import { groupVersionFolder } from './module-place.js';

/** The modules of one group version's folder; they import one another, so they are shared together or not at all. */
const MODULES = ['models.ts', 'paths.ts', 'operations.ts', 'watches.ts'] as const;
const HEADER_LINES = 3;

/**
 * Releases often serve a group version unchanged (1.34 and 1.35 repeat 1.33's Lease API and both LeaseCandidate
 * versions word for word). Such a folder's modules become one-line re-exports of the first release that had them,
 * so the package ships each API once and the types are the very same across those releases. A folder is shared
 * only when all its modules match, and, for a group version outside the release folder, only when the release's
 * Lease models it imports (`../models.js`) match too. Reads emitted text only: two folders are alike exactly when
 * what users would get from them is.
 */
export function shareIdenticalModules(
  sources: ReadonlyMap<string, string>,
  releases: readonly ReleaseIr[],
): Map<string, string> {
  const shared = new Map(sources);
  /** Where each folder's modules really live, after sharing: `v1_35/v1beta1` → `v1_33/v1beta1`. */
  const home = new Map<string, string>();
  releases.forEach((ir, index) => {
    const previous = releases[index - 1];
    const dir = releaseModuleName(ir.release);
    for (const gv of ir.groupVersions) {
      const namespace = groupVersionNamespace(gv);
      const folder = groupVersionFolder(dir, namespace);
      home.set(folder, folder);
      if (previous === undefined || !previous.groupVersions.some((p) => groupVersionNamespace(p) === namespace))
        continue;
      const previousDir = releaseModuleName(previous.release);
      const previousFolder = groupVersionFolder(previousDir, namespace);
      const same = (a: string, b: string): boolean => split(sources.get(a)).body === split(sources.get(b)).body;
      const alike =
        MODULES.every((module) => same(`${folder}/${module}`, `${previousFolder}/${module}`)) &&
        (namespace === undefined || same(`${dir}/models.ts`, `${previousDir}/models.ts`));
      if (!alike) continue;
      const target = home.get(previousFolder) ?? previousFolder;
      home.set(folder, target);
      const depth = folder.split('/').length;
      for (const module of MODULES) {
        const specifier = `${'../'.repeat(depth)}${target}/${module.replace(/\.ts$/, '.js')}`;
        const { header } = split(sources.get(`${folder}/${module}`));
        shared.set(
          `${folder}/${module}`,
          `${header}\n// Identical to ${target}/${module}: shipped once, re-exported here.\nexport * from '${specifier}';\n`,
        );
      }
    }
  });
  return shared;
}

/** A module's generated header (which names its release) and the rest, which two releases may share. */
function split(text: string | undefined): { header: string; body: string } {
  const lines = (text ?? '').split('\n');
  return { header: lines.slice(0, HEADER_LINES).join('\n'), body: lines.slice(HEADER_LINES).join('\n') };
}
