import type { JsonObject } from '../shared/json.js';
import { COORDINATION_V1, type GroupVersion } from '../shared/groupVersion.js';
import { buildModels } from './buildModels.js';
import { buildOperations } from './buildOperations.js';
import { buildPathTemplates } from './buildPathTemplates.js';
import type { ReleaseIr } from './types.js';
import { validateNames } from './validateNames.js';

/** Normalised document → IR. `file` is only used to name the place of a problem. */
export function buildReleaseIr(release: string, document: JsonObject, file: string, gv: GroupVersion = COORDINATION_V1): ReleaseIr {
  const operations = buildOperations(document, file, gv);
  const ir: ReleaseIr = {
    release,
    group: gv.group,
    version: gv.version,
    paths: buildPathTemplates(operations, gv),
    operations,
    models: buildModels(document, file),
  };
  validateNames(ir, file);
  return ir;
}
