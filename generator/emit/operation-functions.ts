// The functions of an operation: `name(client, params, options)`, resolving to the body, and its
// `nameWithResponse` twin, resolving to `{ status, headers, body }`; both send one request through the runtime.
import {
  StructureKind,
  type FunctionDeclarationStructure,
  type OptionalKind,
  type ParameterDeclarationStructure,
  type StatementStructures,
  type WriterFunction,
} from 'ts-morph';
import type { ParameterIr } from '../ir/types.js';
import { pathBuilderCall } from './emit-paths.js';
import type { ImportTracker } from './import-tracker.js';
import { deprecationNote, jsDocs, sinceTag } from './js-doc.js';
import { type OperationShape, successTypes } from './operation-types.js';
import { objectLiteralKey } from './type-text.js';

const TRANSPORT = '../runtime/transport.js';
const QUERY = '../runtime/query.js';
const PATCH = '../runtime/patch.js';
const PATHS = './paths.js';
const RESPONSE = '../runtime/response.js';

/** A field of the request object: plain text, or a call whose object argument is written one entry per line. */
type RequestField = string | { readonly call: string; readonly entries: readonly string[] };

/** `name` and `nameWithResponse`, which take the same arguments and send the same request. */
export function operationFunctionDeclarations(shape: OperationShape, imports: ImportTracker): StatementStructures[] {
  const { operation, typeBase } = shape;
  const name = operation.name;
  const fields = requestFields(shape, imports);
  const since = sinceTag(operation);
  const deprecated = operation.deprecated
    ? [{ tagName: 'deprecated', text: deprecationNote(operation.description) }]
    : [];
  const parameters = functionParameters(shape, imports);
  const bodyFunction: FunctionDeclarationStructure = {
    kind: StructureKind.Function,
    isExported: true,
    // async: an invalid path parameter then rejects the returned promise instead of throwing synchronously.
    isAsync: true,
    name,
    docs: jsDocs([operation.description, '', `\`${operation.method} ${operation.path}\``].join('\n'), [
      { tagName: 'throws', text: 'KubernetesApiError for any non-2xx response (see isNotFound, isConflict, …)' },
      ...since,
      ...deprecated,
    ]),
    parameters,
    returnType: `Promise<${returnType(shape, imports)}>`,
    statements: [requestStatement('client.request', fields)],
  };
  // A separate function rather than an option, so that bundles which only want bodies never carry requestWithResponse.
  const withResponse: FunctionDeclarationStructure = {
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
  };
  return [bodyFunction, withResponse];
}

/** The request both functions send: method, path, query and body (or the patch, which picks its own Content-Type). */
function requestFields(shape: OperationShape, imports: ImportTracker): RequestField[] {
  const { operation, query } = shape;
  imports.value(PATHS, operation.pathBuilder);
  const fields: RequestField[] = [`method: '${operation.method}'`, `path: ${pathBuilderCall(operation)}`];
  if (query.length > 0)
    fields.push({
      call: `query: ${imports.value(QUERY, 'encodeQuery')}`,
      entries: query.map((p) => `${objectLiteralKey(p.name)}: ${accessor(p.name)}`),
    });
  if (shape.isPatch) fields.push(`...${imports.value(PATCH, 'patchRequest')}(params.patch)`);
  else if (operation.requestBody !== undefined) {
    // The transport sends a body as application/json unless told otherwise.
    fields.push(
      operation.requestBody.required
        ? 'body: JSON.stringify(params.body)'
        : 'body: params.body === undefined ? undefined : JSON.stringify(params.body)',
    );
  }
  return fields;
}

/** `client`, then `params` when the operation has inputs (defaulted when nothing in it is required), then `options`. */
function functionParameters(
  shape: OperationShape,
  imports: ImportTracker,
): OptionalKind<ParameterDeclarationStructure>[] {
  const params = `${shape.typeBase}Params`;
  return [
    { name: 'client', type: imports.type(TRANSPORT, 'Client') },
    ...(shape.hasInputs
      ? [
          {
            name: 'params',
            type: params,
            ...(shape.inputsRequired ? {} : { initializer: emptyParams(params, shape.query) }),
          },
        ]
      : []),
    { name: 'options', type: imports.type(TRANSPORT, 'CallOptions'), hasQuestionToken: true },
  ];
}

function returnType(shape: OperationShape, imports: ImportTracker): string {
  const types = [...new Set(successTypes(shape.operation, imports).map((s) => s.type))];
  return types.length === 0 ? 'void' : types.join(' | ');
}

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
