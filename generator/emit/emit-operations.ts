import {
  StructureKind,
  type InterfaceDeclarationStructure,
  type OptionalKind,
  type PropertySignatureStructure,
  type StatementStructures,
} from 'ts-morph';
import { clientOperations, patchVariants, queryParameters } from '../ir/client-surface.js';
import type { GroupVersionIr, OperationIr, ParameterIr, TypeRef } from '../ir/types.js';
import { referencedModels } from '../ir/type-refs.js';
import type { WriterFunction } from 'ts-morph';
import { deprecationNote, jsDocs, jsDocText, sinceTag } from './js-doc.js';
import { createImportTracker, type ImportTracker } from './import-tracker.js';
import { RELEASE_FOLDER, relocateRuntime, type ModulePlace } from './module-place.js';
import { pathBuilderCall } from './emit-paths.js';
import { objectLiteralKey, propertyName, typeText } from './type-text.js';

function pascal(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

const TRANSPORT = '../runtime/transport.js';
const QUERY = '../runtime/query.js';
const PATCH = '../runtime/patch.js';
const MODELS = './models.js';
const PATHS = './paths.js';
const RESPONSE = '../runtime/response.js';

/** The TypeScript text of a type, importing the models it names. */
function usedType(imports: ImportTracker, type: TypeRef): string {
  for (const model of referencedModels(type)) imports.type(MODELS, model);
  return typeText(type);
}

function successTypes(
  operation: OperationIr,
  imports: ImportTracker,
): Array<{ code: string; type: string; description: string }> {
  return operation.responses
    .filter((r) => /^2\d\d$/.test(r.code) && r.type !== undefined)
    .map((r) => ({ code: r.code, type: usedType(imports, r.type!), description: r.description }));
}

/** A `…Responses` member's summary: the status code with the spec's description of it (`OK`, `Created`). */
function responseDoc(code: string, description: string): string {
  const meaning = jsDocText(description);
  return `The body of a ${code} response${meaning === '' ? '' : ` (${meaning})`}.`;
}

function returnType(operation: OperationIr, imports: ImportTracker): string {
  const types = [...new Set(successTypes(operation, imports).map((s) => s.type))];
  return types.length === 0 ? 'void' : types.join(' | ');
}

/** The model a patch applies to: the body of the patch's 200 response. */
function patchedModel(operation: OperationIr, imports: ImportTracker): string {
  return successTypes(operation, imports)[0]?.type ?? 'unknown';
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

/**
 * An optional input also takes `undefined`: under exactOptionalPropertyTypes (which `tsc --init` turns on) callers
 * pass `x: maybe` from optional chains, and `x?: T` alone would refuse that.
 */
export function inputType(type: string, optional: boolean): string {
  return optional ? `${type} | undefined` : type;
}

export function operationStatements(
  ir: GroupVersionIr,
  place: ModulePlace = RELEASE_FOLDER,
): Array<string | StatementStructures> {
  const imports = createImportTracker((module) => relocateRuntime(module, place));
  const declarations = clientOperations(ir).flatMap((operation) => operationDeclarations(operation, imports));
  return [...imports.declarations(), ...declarations];
}

/**
 * The names `operationStatements` exports for one operation besides the function itself (its `…WithResponse` twin
 * and its parameter, query and response types), read off the declarations themselves: the package README lists them.
 */
export function operationCompanionNames(operation: OperationIr): string[] {
  return (
    operationDeclarations(operation, createImportTracker())
      .flatMap((d) => ('name' in d && typeof d.name === 'string' ? [d.name] : []))
      .filter((name) => name !== operation.name)
      // The `…WithResponse` twin first, then the types.
      .sort((a, b) => Number(/^[A-Z]/.test(a)) - Number(/^[A-Z]/.test(b)))
  );
}

function operationDeclarations(operation: OperationIr, imports: ImportTracker): StatementStructures[] {
  const name = operation.name;
  const typeBase = pascal(name);
  const query = queryParameters(operation);
  const isPatch = operation.kind === 'patch';
  const applyOnly = new Set(isPatch ? ['fieldManager', 'force'] : []);
  const declarations: StatementStructures[] = [];
  const hasInputs = operation.pathParameters.length > 0 || query.length > 0 || operation.requestBody !== undefined;
  // `listLeaseForAllNamespaces(client)`: an argument with nothing required in it may be left out.
  const inputsRequired =
    operation.pathParameters.length > 0 ||
    query.some((p) => p.required) ||
    operation.requestBody?.required === true ||
    isPatch;

  const queryInterface: InterfaceDeclarationStructure = {
    kind: StructureKind.Interface,
    name: `${typeBase}Query`,
    isExported: true,
    docs: jsDocs(`Query parameters of \`${name}\` (\`${operation.method} ${operation.path}\`).`),
    properties: query.filter((p) => !applyOnly.has(p.name)).map((p) => parameterProperty(imports, p)),
  };
  if (hasInputs) declarations.push(queryInterface);

  const responses: InterfaceDeclarationStructure = {
    kind: StructureKind.Interface,
    name: `${typeBase}Responses`,
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
  declarations.push(responses);

  const pathProperties = operation.pathParameters.map((p) => parameterProperty(imports, p, { optional: false }));
  const bodyProperty: OptionalKind<PropertySignatureStructure>[] =
    operation.requestBody !== undefined && !isPatch
      ? [
          {
            name: 'body',
            type: inputType(usedType(imports, operation.requestBody.type), !operation.requestBody.required),
            hasQuestionToken: !operation.requestBody.required,
            docs: jsDocs(
              operation.kind === 'delete' || operation.kind === 'deleteCollection'
                ? 'DeleteOptions sent as the request body, e.g. preconditions on uid or resourceVersion.'
                : 'The object sent as the request body.',
            ),
          },
        ]
      : [];

  if (isPatch) {
    declarations.push(...patchParamsDeclarations(operation, imports, typeBase, pathProperties, query));
  } else if (hasInputs) {
    declarations.push({
      kind: StructureKind.Interface,
      name: `${typeBase}Params`,
      isExported: true,
      extends: [`${typeBase}Query`],
      docs: jsDocs(
        `Arguments of \`${name}\`: path parameters, query parameters${bodyProperty.length > 0 ? ' and the request body' : ''}.`,
      ),
      properties: [...pathProperties, ...bodyProperty],
    });
  }

  imports.value(PATHS, operation.pathBuilder);
  const path = pathBuilderCall(operation);
  const fields: RequestField[] = [`method: '${operation.method}'`, `path: ${path}`];
  if (query.length > 0)
    fields.push({
      call: `query: ${imports.value(QUERY, 'encodeQuery')}`,
      entries: query.map((p) => `${objectLiteralKey(p.name)}: ${accessor(p.name)}`),
    });
  if (isPatch) fields.push(`...${imports.value(PATCH, 'patchRequest')}(params.patch)`);
  else if (operation.requestBody !== undefined) {
    // The transport sends a body as application/json unless told otherwise.
    fields.push(
      operation.requestBody.required
        ? 'body: JSON.stringify(params.body)'
        : 'body: params.body === undefined ? undefined : JSON.stringify(params.body)',
    );
  }
  const description = [operation.description, '', `\`${operation.method} ${operation.path}\``].join('\n');
  const since = sinceTag(operation);
  const deprecated = operation.deprecated
    ? [{ tagName: 'deprecated', text: deprecationNote(operation.description) }]
    : [];
  const parameters = [
    { name: 'client', type: imports.type(TRANSPORT, 'Client') },
    ...(hasInputs
      ? [
          {
            name: 'params',
            type: `${typeBase}Params`,
            ...(inputsRequired ? {} : { initializer: emptyParams(`${typeBase}Params`, query) }),
          },
        ]
      : []),
    { name: 'options', type: imports.type(TRANSPORT, 'CallOptions'), hasQuestionToken: true },
  ];
  declarations.push({
    kind: StructureKind.Function,
    isExported: true,
    // async: an invalid path parameter then rejects the returned promise instead of throwing synchronously.
    isAsync: true,
    name,
    docs: jsDocs(description, [
      { tagName: 'throws', text: 'KubernetesApiError for any non-2xx response (see isNotFound, isConflict, …)' },
      ...since,
      ...deprecated,
    ]),
    parameters,
    returnType: `Promise<${returnType(operation, imports)}>`,
    statements: [requestStatement('client.request', fields)],
  });
  // A separate function rather than an option, so that bundles which only want bodies never carry requestWithResponse.
  declarations.push({
    kind: StructureKind.Function,
    isExported: true,
    isAsync: true,
    name: `${name}WithResponse`,
    docs: jsDocs(
      `As \`${name}\`, resolving to \`{ status, headers, body }\` with the body typed by the status code (\`${typeBase}Responses\`), ` +
        'for callers who must tell e.g. 200 from 201 or 202, or read response headers.\n\n' +
        `\`${operation.method} ${operation.path}\``,
      [{ tagName: 'throws', text: 'KubernetesApiError for any non-2xx response' }, ...since, ...deprecated],
    ),
    parameters,
    returnType: `Promise<${imports.type(RESPONSE, 'ResponseOf')}<${typeBase}Responses>>`,
    statements: [
      requestStatement(`${imports.value(RESPONSE, 'requestWithResponse')}<${typeBase}Responses>`, fields, 'client'),
    ],
  });
  return declarations;
}

function patchParamsDeclarations(
  operation: OperationIr,
  imports: ImportTracker,
  typeBase: string,
  pathProperties: OptionalKind<PropertySignatureStructure>[],
  query: ParameterIr[],
): StatementStructures[] {
  const model = patchedModel(operation, imports);
  const fieldManager = query.find((p) => p.name === 'fieldManager');
  const force = query.find((p) => p.name === 'force');
  const variants = patchVariants(operation);
  const nonApply = variants
    .filter((v) => !v.apply)
    .map((v) =>
      v.typeName === 'JsonPatch' ? imports.type(PATCH, v.typeName) : `${imports.type(PATCH, v.typeName)}<${model}>`,
    );
  const apply = variants.find((v) => v.apply);
  const members: string[] = [];
  const fieldManagerDoc =
    fieldManager === undefined ? [] : [parameterProperty(imports, fieldManager, { optional: true })];
  const declarations: StatementStructures[] = [
    {
      kind: StructureKind.Interface,
      name: `${typeBase}Target`,
      isExported: true,
      extends: [`${typeBase}Query`],
      docs: jsDocs(`Path and query arguments of \`${operation.name}\` shared by every patch type.`),
      properties: pathProperties,
    },
  ];
  if (nonApply.length > 0) {
    declarations.push({
      kind: StructureKind.Interface,
      name: `${typeBase}UpdatePatch`,
      isExported: true,
      extends: [`${typeBase}Target`],
      docs: jsDocs(
        'A JSON, merge or strategic merge patch. `force` is only for server-side apply, so it cannot be set here.',
      ),
      properties: [
        {
          name: 'patch',
          type: nonApply.join(' | '),
          docs: jsDocs('The patch; its `type` (`json`, `merge`, `strategic`) picks the Content-Type it is sent with.'),
        },
        ...fieldManagerDoc,
        ...(force !== undefined
          ? [
              {
                name: 'force',
                type: 'undefined',
                hasQuestionToken: true,
                docs: jsDocs('Only for server-side apply (`patch.type: apply`); never set with these patch types.'),
              },
            ]
          : []),
      ],
    });
    members.push(`${typeBase}UpdatePatch`);
  }
  if (apply !== undefined) {
    declarations.push({
      kind: StructureKind.Interface,
      name: `${typeBase}ApplyPatch`,
      isExported: true,
      extends: [`${typeBase}Target`],
      docs: jsDocs(
        'A server-side apply patch: `fieldManager` is required, `force` re-acquires fields owned by other managers.',
      ),
      properties: [
        {
          name: 'patch',
          type: `${imports.type(PATCH, 'ApplyPatch')}<${model}>`,
          docs: jsDocs('The apply configuration (`type: apply`), sent as `application/apply-patch+yaml`.'),
        },
        ...(fieldManager !== undefined ? [parameterProperty(imports, fieldManager, { optional: false })] : []),
        ...(force !== undefined ? [parameterProperty(imports, force, { optional: true })] : []),
      ],
    });
    members.push(`${typeBase}ApplyPatch`);
  }
  declarations.push({
    kind: StructureKind.TypeAlias,
    name: `${typeBase}Params`,
    isExported: true,
    docs: jsDocs(`Arguments of \`${operation.name}\`, discriminated by \`patch.type\`.`),
    type: members.length > 0 ? members.join(' | ') : 'never',
  });
  return declarations;
}

/** A field of the request object: plain text, or a call whose object argument is written one entry per line. */
type RequestField = string | { readonly call: string; readonly entries: readonly string[] };

/**
 * The default of an argument with nothing required: `{}`, unless a parameter is named like an Object.prototype
 * member (`toString`), which `{}` already "has" with a function type as far as the compiler is concerned.
 */
function emptyParams(type: string, query: readonly ParameterIr[]): string {
  return query.some((p) => p.name in Object.prototype) ? `{} as ${type}` : '{}';
}

function accessor(name: string): string {
  const read = /^[A-Za-z_$][\w$]*$/.test(name) ? `params.${name}` : `params[${JSON.stringify(name)}]`;
  // A parameter named like an Object.prototype member (constructor, toString, __proto__) the caller left out
  // would read the inherited one and send `constructor=function Object()…`: read own properties only.
  return name in Object.prototype
    ? `(Object.prototype.hasOwnProperty.call(params, ${JSON.stringify(name)}) ? ${read} : undefined)`
    : read;
}

/** `return client.request({ … }, options);` (or another callee with leading arguments), one field per line, as a formatter would lay it out. */
function requestStatement(callee: string, fields: readonly RequestField[], client?: string): WriterFunction {
  return (writer) => {
    writer.writeLine(`return ${callee}(`);
    if (client !== undefined) writer.indent(() => writer.writeLine(`${client},`));
    writer.indent(() => {
      writer.writeLine('{');
      writer.indent(() => {
        for (const field of fields) {
          if (typeof field === 'string') {
            writer.writeLine(`${field},`);
            continue;
          }
          writer.writeLine(`${field.call}({`);
          writer.indent(() => {
            for (const entry of field.entries) writer.writeLine(`${entry},`);
          });
          writer.writeLine('}),');
        }
      });
      writer.writeLine('},');
      writer.writeLine('options,');
    });
    writer.write(');');
  };
}
