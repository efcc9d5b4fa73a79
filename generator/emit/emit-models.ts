import {
  StructureKind,
  type InterfaceDeclarationStructure,
  type StatementStructures,
  type TypeAliasDeclarationStructure,
} from 'ts-morph';
import type { GroupVersionIr, ModelIr } from '../ir/types.js';
import { jsDocs, sinceTag } from './js-doc.js';
import { propertyName, typeText } from './type-text.js';
import { RELEASE_FOLDER, relocateRuntime, type ModulePlace } from './module-place.js';
import { createImportTracker, type ImportTracker } from './import-tracker.js';

/** Models another module of the release already declares, re-exported from there instead of declared twice. */
export interface SharedModels {
  /** Module specifier of the module declaring them, e.g. `../models.js`. */
  readonly module: string;
  /** Schema names it declares: the same schema in the same document is the same model. */
  readonly schemaNames: ReadonlySet<string>;
}

/**
 * Model declarations for one group version: an interface per object schema, a type
 * alias per other schema, and branded exact-string types for Kubernetes
 * timestamps (never `Date`: MicroTime must keep its six fractional digits).
 * Models in `shared` (ObjectMeta, Status, … in LeaseCandidate's versions) are re-exported from the Lease API's
 * module, so `v1beta1.ObjectMeta` and `ObjectMeta` are one type.
 */
export function modelStatements(
  ir: GroupVersionIr,
  place: ModulePlace = RELEASE_FOLDER,
  shared?: SharedModels,
): Array<string | StatementStructures> {
  const reexported = ir.models.filter((m) => shared?.schemaNames.has(m.schemaName) === true);
  const own = ir.models.filter((m) => !reexported.includes(m));
  const imports = createImportTracker((module) => relocateRuntime(module, place));
  const statements: Array<string | StatementStructures> = [];
  if (shared !== undefined && reexported.length > 0) {
    // Imported as well as exported: this module's own models name them.
    const names = reexported.map((m) => imports.type(shared.module, m.name)).sort();
    statements.push({ kind: StructureKind.ExportDeclaration, isTypeOnly: true, namedExports: names });
  }
  for (const model of [...own].sort((a, b) => (a.name < b.name ? -1 : 1)))
    statements.push(modelStatement(model, imports));
  return [...imports.declarations(), ...statements];
}

const TIME = '../runtime/time.js';

function modelStatement(
  model: ModelIr,
  imports: ImportTracker,
): InterfaceDeclarationStructure | TypeAliasDeclarationStructure {
  const docs = jsDocs(model.description, [{ tagName: 'see', text: model.schemaName }, ...sinceTag(model)]);
  switch (model.shape.kind) {
    case 'object':
      return {
        kind: StructureKind.Interface,
        name: model.name,
        isExported: true,
        docs,
        properties: model.shape.properties.map((p) => ({
          name: propertyName(p.name),
          // Models are inputs too (create/replace bodies): an optional field takes `undefined` under exactOptionalPropertyTypes.
          type: p.required ? typeText(p.type) : `${typeText(p.type)} | undefined`,
          hasQuestionToken: !p.required,
          docs: jsDocs(p.description, sinceTag(p)),
        })),
        ...(model.shape.additionalProperties !== undefined
          ? {
              indexSignatures: [
                { keyName: 'key', keyType: 'string', returnType: typeText(model.shape.additionalProperties) },
              ],
            }
          : {}),
      };
    case 'timestamp':
      return {
        kind: StructureKind.TypeAlias,
        name: model.name,
        isExported: true,
        docs,
        // The runtime's branded string under a local alias: the model itself takes the runtime's name.
        type: imports.type(
          TIME,
          model.shape.precision === 'microseconds' ? 'MicroTime' : 'Time',
          `${model.name}String`,
        ),
      };
    case 'alias':
      return {
        kind: StructureKind.TypeAlias,
        name: model.name,
        isExported: true,
        docs,
        type: typeText(model.shape.type),
      };
  }
}
