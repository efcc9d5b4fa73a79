import type { JsonObject } from '../shared/json.js';
import { isJsonObject } from '../shared/json.js';
import { compareKubeVersions, versionOfPath, type GroupVersion } from '../shared/group-version.js';
import { coversVersion, rootGroupVersion, type GenerationTarget } from '../shared/target.js';
import { GeneratorError } from '../errors.js';
import { buildModels } from './build-models.js';
import { buildOperations } from './build-operations.js';
import { buildPathTemplates } from './build-path-templates.js';
import { buildResources, coveredPathItems } from './build-resources.js';
import { reachableSchemas } from './reachable-schemas.js';
import type { GroupVersionIr, ReleaseIr } from './types.js';
import { validateNames } from './validate-names.js';

/**
 * Normalised document → IR: one entry per version of the target's group the document has paths for and the
 * target covers, the root version (which must be among them: the Lease API's v1 for the shipped packages) first.
 * `file` is only used to name the place of a problem.
 */
export function buildReleaseIr(
  release: string,
  document: JsonObject,
  file: string,
  target: GenerationTarget,
): ReleaseIr {
  const root = rootGroupVersion(target);
  const served = servedVersions(document, target.group);
  if (!served.includes(root.version)) {
    throw new GeneratorError(
      'no-group-paths',
      `no ${root.group}/${root.version} paths (the root version, which every release must serve); found ${served.join(', ') || 'none'}`,
      { file, pointer: '/paths' },
    );
  }
  const versions = [root.version, ...served.filter((v) => v !== root.version && coversVersion(target, v))];
  return {
    release,
    // A version left with none of the target's kinds has nothing to generate but its discovery call.
    groupVersions: versions
      .map((version) => buildGroupVersionIr(release, document, file, { gv: { group: target.group, version }, target }))
      .filter((gv) => gv.root || gv.resources.length > 0),
  };
}

/** One group version of a release, built from the paths under its prefix the target covers and the schemas they reach. */
export function buildGroupVersionIr(
  release: string,
  document: JsonObject,
  file: string,
  { gv, target }: { readonly gv: GroupVersion; readonly target: GenerationTarget },
): GroupVersionIr {
  const resources = buildResources(document, gv);
  const items = coveredPathItems(document, gv, resources, target);
  const operations = buildOperations(items, { file, gv, resources });
  const ir: GroupVersionIr = {
    release,
    group: gv.group,
    version: gv.version,
    root: gv.version === target.rootVersion,
    // Only the covered kinds: a resource the target leaves out has no operation to describe.
    resources: resources.filter((r) => operations.some((o) => o.resource === r.plural)),
    paths: buildPathTemplates(operations, gv, resources),
    operations,
    models: buildModels(document, file, reachableSchemas(document, items)),
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

/** The root group version of a release (always present: buildReleaseIr refuses a document without it); the Lease API in the shipped packages. */
export function rootGroupVersionIr(ir: ReleaseIr): GroupVersionIr {
  return ir.groupVersions.find((gv) => gv.root)!;
}
