import type { JsonObject } from '../shared/json.js';
import { isJsonObject } from '../shared/json.js';
import {
  COORDINATION_GROUP,
  COORDINATION_V1,
  compareKubeVersions,
  versionOfPath,
  type GroupVersion,
} from '../shared/group-version.js';
import { GeneratorError } from '../errors.js';
import { buildModels } from './build-models.js';
import { buildOperations } from './build-operations.js';
import { buildPathTemplates } from './build-path-templates.js';
import { reachableSchemas } from './reachable-schemas.js';
import type { GroupVersionIr, ReleaseIr } from './types.js';
import { validateNames } from './validate-names.js';

/**
 * Normalised document → IR: one entry per version of the group the document has paths for. The Lease API
 * (coordination.k8s.io/v1) must be among them. `file` is only used to name the place of a problem.
 */
export function buildReleaseIr(release: string, document: JsonObject, file: string): ReleaseIr {
  const versions = servedVersions(document, COORDINATION_GROUP);
  if (!versions.includes(COORDINATION_V1.version)) {
    throw new GeneratorError(
      'no-group-paths',
      `no ${COORDINATION_V1.group}/${COORDINATION_V1.version} paths (the Lease API); found ${versions.join(', ') || 'none'}`,
      { file, pointer: '/paths' },
    );
  }
  return {
    release,
    groupVersions: versions.map((version) =>
      buildGroupVersionIr(release, document, file, { group: COORDINATION_GROUP, version }),
    ),
  };
}

/** One group version of a release, built from the paths under its prefix and the schemas they reach. */
export function buildGroupVersionIr(
  release: string,
  document: JsonObject,
  file: string,
  gv: GroupVersion,
): GroupVersionIr {
  const operations = buildOperations(document, file, gv);
  const ir: GroupVersionIr = {
    release,
    group: gv.group,
    version: gv.version,
    paths: buildPathTemplates(operations, gv),
    operations,
    models: buildModels(document, file, reachableSchemas(document, gv)),
  };
  validateNames(ir, file);
  return ir;
}

/** The versions of `group` with paths in the document, in Kubernetes' priority order (v1 first). */
export function servedVersions(document: JsonObject, group: string): string[] {
  const paths = isJsonObject(document['paths']) ? Object.keys(document['paths']) : [];
  const versions = new Set(paths.map((p) => versionOfPath(p, group)).filter((v): v is string => v !== undefined));
  return [...versions].sort(compareKubeVersions);
}

/** The Lease API's group version of a release (always present: buildReleaseIr refuses a document without it). */
export function leaseGroupVersion(ir: ReleaseIr): GroupVersionIr {
  return ir.groupVersions.find((gv) => gv.group === COORDINATION_V1.group && gv.version === COORDINATION_V1.version)!;
}
