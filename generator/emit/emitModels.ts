import { StructureKind, type InterfaceDeclarationStructure, type StatementStructures, type TypeAliasDeclarationStructure } from 'ts-morph';
import type { ModelIr, ReleaseIr } from '../ir/types.js';
import { jsDocs, sinceTag } from './jsDoc.js';
import { propertyName, typeText } from './typeText.js';

/**
 * Model declarations for one release: an interface per object schema, a type
 * alias per other schema, and branded exact-string types for Kubernetes
 * timestamps (never `Date`: MicroTime must keep its six fractional digits).
 */
export function modelStatements(ir: ReleaseIr): Array<string | StatementStructures> {
  const usesTimestamps = ir.models.some((m) => m.shape.kind === 'timestamp');
  const statements: Array<string | StatementStructures> = [];
  if (usesTimestamps) {
    statements.push({
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      moduleSpecifier: '../runtime/time.js',
      namedImports: ir.models.filter((m) => m.shape.kind === 'timestamp').map((m) => ({ name: m.shape.kind === 'timestamp' && m.shape.precision === 'microseconds' ? 'MicroTime' : 'Time', alias: `${m.name}String` })),
    });
  }
  for (const model of [...ir.models].sort((a, b) => (a.name < b.name ? -1 : 1))) statements.push(modelStatement(model));
  return statements;
}

function modelStatement(model: ModelIr): InterfaceDeclarationStructure | TypeAliasDeclarationStructure {
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
          ? { indexSignatures: [{ keyName: 'key', keyType: 'string', returnType: typeText(model.shape.additionalProperties) }] }
          : {}),
      };
    case 'timestamp':
      return { kind: StructureKind.TypeAlias, name: model.name, isExported: true, docs, type: `${model.name}String` };
    case 'alias':
      return { kind: StructureKind.TypeAlias, name: model.name, isExported: true, docs, type: typeText(model.shape.type) };
  }
}
