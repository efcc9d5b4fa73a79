// The types an operation's functions take and return: `…Query`, `…Responses` and `…Params` (for a patch, the
// `…Target`, `…UpdatePatch` and `…ApplyPatch` variants `…Params` is the union of).
import {
  StructureKind,
  type InterfaceDeclarationStructure,
  type OptionalKind,
  type PropertySignatureStructure,
  type StatementStructures,
} from 'ts-morph';
import { patchVariants, queryParameters } from '../ir/client-surface.js';
import { referencedModels } from '../ir/type-refs.js';
import type { OperationIr, ParameterIr, TypeRef } from '../ir/types.js';
import type { ImportTracker } from './import-tracker.js';
import { jsDocs, jsDocText, sinceTag } from './js-doc.js';
import { propertyName, typeText } from './type-text.js';

const PATCH = '../runtime/patch.js';
const MODELS = './models.js';

/** What an operation's types and functions are both built from. */
export interface OperationShape {
  readonly operation: OperationIr;
  /** The operation's name in PascalCase, the stem of its type names (`ReadNamespacedLease`). */
  readonly typeBase: string;
  /** The query parameters its functions accept. */
  readonly query: readonly ParameterIr[];
  readonly isPatch: boolean;
  /** Whether its functions take a `params` argument at all. */
  readonly hasInputs: boolean;
  /** `listLeaseForAllNamespaces(client)`: an argument with nothing required in it may be left out. */
  readonly inputsRequired: boolean;
}

export function operationShape(operation: OperationIr): OperationShape {
  const query = queryParameters(operation);
  const isPatch = operation.kind === 'patch';
  return {
    operation,
    typeBase: operation.name.charAt(0).toUpperCase() + operation.name.slice(1),
    query,
    isPatch,
    hasInputs: operation.pathParameters.length > 0 || query.length > 0 || operation.requestBody !== undefined,
    inputsRequired:
      operation.pathParameters.length > 0 ||
      query.some((p) => p.required) ||
      operation.requestBody?.required === true ||
      isPatch,
  };
}

/** The TypeScript text of a type, importing the models it names. */
function usedType(imports: ImportTracker, type: TypeRef): string {
  for (const model of referencedModels(type)) imports.type(MODELS, model);
  return typeText(type);
}

/** The 2xx responses with a body: status code, body type and the spec's description of the status. */
export function successTypes(
  operation: OperationIr,
  imports: ImportTracker,
): Array<{ code: string; type: string; description: string }> {
  return operation.responses
    .filter((r) => /^2\d\d$/.test(r.code) && r.type !== undefined)
    .map((r) => ({ code: r.code, type: usedType(imports, r.type!), description: r.description }));
}

/**
 * An optional input also takes `undefined`: under exactOptionalPropertyTypes (which `tsc --init` turns on) callers
 * pass `x: maybe` from optional chains, and `x?: T` alone would refuse that.
 */
function inputType(type: string, optional: boolean): string {
  return optional ? `${type} | undefined` : type;
}

function parameterProperty(
  imports: ImportTracker,
  parameter: ParameterIr,
  options: { optional?: boolean } = {},
): OptionalKind<PropertySignatureStructure> {
  const optional = options.optional ?? !parameter.required;
  return {
    name: propertyName(parameter.name),
    type: inputType(usedType(imports, parameter.type), optional),
    hasQuestionToken: optional,
    docs: jsDocs(parameter.description, sinceTag(parameter)),
  };
}

/** `…Query`, `…Responses` and the `…Params` declarations of one operation, in that order. */
export function operationTypeDeclarations(shape: OperationShape, imports: ImportTracker): StatementStructures[] {
  const query = queryInterface(shape, imports);
  const responses = responsesInterface(shape, imports);
  return [
    ...(shape.hasInputs ? [query] : []),
    responses,
    ...(shape.isPatch ? patchParamsDeclarations(shape, imports) : paramsDeclarations(shape, imports)),
  ];
}

function queryInterface(shape: OperationShape, imports: ImportTracker): InterfaceDeclarationStructure {
  const { operation } = shape;
  // fieldManager and force belong to the patch variants, which say when each may be set.
  const applyOnly = new Set(shape.isPatch ? ['fieldManager', 'force'] : []);
  return {
    kind: StructureKind.Interface,
    name: `${shape.typeBase}Query`,
    isExported: true,
    docs: jsDocs(`Query parameters of \`${operation.name}\` (\`${operation.method} ${operation.path}\`).`),
    properties: shape.query.filter((p) => !applyOnly.has(p.name)).map((p) => parameterProperty(imports, p)),
  };
}

/** A `…Responses` member's summary: the status code with the spec's description of it (`OK`, `Created`). */
function responseDoc(code: string, description: string): string {
  const meaning = jsDocText(description);
  return `The body of a ${code} response${meaning === '' ? '' : ` (${meaning})`}.`;
}

function responsesInterface(shape: OperationShape, imports: ImportTracker): InterfaceDeclarationStructure {
  const { operation } = shape;
  const name = operation.name;
  return {
    kind: StructureKind.Interface,
    name: `${shape.typeBase}Responses`,
    isExported: true,
    docs: jsDocs(
      `Response bodies of \`${name}\` by HTTP status code, as \`${name}WithResponse\` returns them. Any other status is thrown as a KubernetesApiError.`,
    ),
    properties: successTypes(operation, imports).map((s) => ({
      name: s.code,
      type: s.type,
      docs: jsDocs(responseDoc(s.code, s.description)),
    })),
  };
}

function pathProperties(operation: OperationIr, imports: ImportTracker): OptionalKind<PropertySignatureStructure>[] {
  return operation.pathParameters.map((p) => parameterProperty(imports, p, { optional: false }));
}

/** `…Params` of an operation other than a patch: path parameters, and the body, on top of `…Query`. */
function paramsDeclarations(shape: OperationShape, imports: ImportTracker): StatementStructures[] {
  if (!shape.hasInputs) return [];
  const { operation, typeBase } = shape;
  const path = pathProperties(operation, imports);
  const body = bodyProperty(operation, imports);
  return [
    {
      kind: StructureKind.Interface,
      name: `${typeBase}Params`,
      isExported: true,
      extends: [`${typeBase}Query`],
      docs: jsDocs(
        `Arguments of \`${operation.name}\`: path parameters, query parameters${body.length > 0 ? ' and the request body' : ''}.`,
      ),
      properties: [...path, ...body],
    },
  ];
}

function bodyProperty(operation: OperationIr, imports: ImportTracker): OptionalKind<PropertySignatureStructure>[] {
  const body = operation.requestBody;
  if (body === undefined) return [];
  return [
    {
      name: 'body',
      type: inputType(usedType(imports, body.type), !body.required),
      hasQuestionToken: !body.required,
      docs: jsDocs(
        operation.kind === 'delete' || operation.kind === 'deleteCollection'
          ? 'DeleteOptions sent as the request body, e.g. preconditions on uid or resourceVersion.'
          : 'The object sent as the request body.',
      ),
    },
  ];
}

/** A patch's arguments: the `…Target` every variant extends, then `…UpdatePatch` and `…ApplyPatch` as offered. */
function patchParamsDeclarations(shape: OperationShape, imports: ImportTracker): StatementStructures[] {
  const { operation, typeBase } = shape;
  const target: InterfaceDeclarationStructure = {
    kind: StructureKind.Interface,
    name: `${typeBase}Target`,
    isExported: true,
    extends: [`${typeBase}Query`],
    docs: jsDocs(`Path and query arguments of \`${operation.name}\` shared by every patch type.`),
    properties: pathProperties(operation, imports),
  };
  // The model a patch applies to: the body of the patch's 200 response.
  const model = successTypes(operation, imports)[0]?.type ?? 'unknown';
  const variants = [updatePatchInterface(shape, model, imports), applyPatchInterface(shape, model, imports)].filter(
    (v) => v !== undefined,
  );
  return [
    target,
    ...variants,
    {
      kind: StructureKind.TypeAlias,
      name: `${typeBase}Params`,
      isExported: true,
      docs: jsDocs(`Arguments of \`${operation.name}\`, discriminated by \`patch.type\`.`),
      type: variants.length > 0 ? variants.map((v) => v.name).join(' | ') : 'never',
    },
  ];
}

/** `…UpdatePatch`: a JSON, merge or strategic merge patch, as the operation offers them. */
function updatePatchInterface(
  shape: OperationShape,
  model: string,
  imports: ImportTracker,
): InterfaceDeclarationStructure | undefined {
  const patchTypes = patchVariants(shape.operation)
    .filter((v) => !v.apply)
    .map((v) =>
      v.typeName === 'JsonPatch' ? imports.type(PATCH, v.typeName) : `${imports.type(PATCH, v.typeName)}<${model}>`,
    );
  if (patchTypes.length === 0) return undefined;
  const fieldManager = shape.query.find((p) => p.name === 'fieldManager');
  const force = shape.query.find((p) => p.name === 'force');
  return {
    kind: StructureKind.Interface,
    name: `${shape.typeBase}UpdatePatch`,
    isExported: true,
    extends: [`${shape.typeBase}Target`],
    docs: jsDocs(
      'A JSON, merge or strategic merge patch. `force` is only for server-side apply, so it cannot be set here.',
    ),
    properties: [
      {
        name: 'patch',
        type: patchTypes.join(' | '),
        docs: jsDocs('The patch; its `type` (`json`, `merge`, `strategic`) picks the Content-Type it is sent with.'),
      },
      ...(fieldManager === undefined ? [] : [parameterProperty(imports, fieldManager, { optional: true })]),
      ...(force === undefined
        ? []
        : [
            {
              name: 'force',
              type: 'undefined',
              hasQuestionToken: true,
              docs: jsDocs('Only for server-side apply (`patch.type: apply`); never set with these patch types.'),
            },
          ]),
    ],
  };
}

/** `…ApplyPatch`: a server-side apply patch, when the operation offers one. */
function applyPatchInterface(
  shape: OperationShape,
  model: string,
  imports: ImportTracker,
): InterfaceDeclarationStructure | undefined {
  const apply = patchVariants(shape.operation).find((v) => v.apply);
  if (apply === undefined) return undefined;
  const fieldManager = shape.query.find((p) => p.name === 'fieldManager');
  const force = shape.query.find((p) => p.name === 'force');
  return {
    kind: StructureKind.Interface,
    name: `${shape.typeBase}ApplyPatch`,
    isExported: true,
    extends: [`${shape.typeBase}Target`],
    docs: jsDocs(
      'A server-side apply patch: `fieldManager` is required, `force` re-acquires fields owned by other managers.',
    ),
    properties: [
      {
        name: 'patch',
        type: `${imports.type(PATCH, apply.typeName)}<${model}>`,
        docs: jsDocs(`The apply configuration (\`type: apply\`), sent as \`${apply.contentType}\`.`),
      },
      ...(fieldManager === undefined ? [] : [parameterProperty(imports, fieldManager, { optional: false })]),
      ...(force === undefined ? [] : [parameterProperty(imports, force, { optional: true })]),
    ],
  };
}
