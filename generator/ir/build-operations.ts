import { GeneratorError } from '../errors.js';
import { isJsonObject, type JsonObject } from '../shared/json.js';
import { joinPointer } from '../shared/json-pointer.js';
import type { GroupVersion } from '../shared/group-version.js';
import { typeRefOf } from './type-refs.js';
import { pathBuilderName } from './build-path-templates.js';
import { resourceOfPath } from './build-resources.js';
import type {
  HttpMethod,
  OperationIr,
  OperationKind,
  ParameterIr,
  RequestBodyIr,
  ResourceIr,
  ResponseIr,
} from './types.js';

const METHODS: ReadonlyArray<[string, HttpMethod]> = [
  ['get', 'GET'],
  ['post', 'POST'],
  ['put', 'PUT'],
  ['patch', 'PATCH'],
  ['delete', 'DELETE'],
];

interface Context {
  readonly file: string;
  readonly gv: GroupVersion;
  readonly resources: readonly ResourceIr[];
}

/** The operations of the path items one group version serves (coveredPathItems: under its prefix, of the kinds covered). */
export function buildOperations(
  items: ReadonlyArray<{ readonly path: string; readonly item: JsonObject }>,
  context: Context,
): OperationIr[] {
  const { file } = context;
  const operations: OperationIr[] = [];
  for (const { path, item } of items) {
    const pathPointer = joinPointer('/paths', path);
    const shared = parametersOf(item['parameters'], { file, pointer: `${pathPointer}/parameters` });
    for (const [key, method] of METHODS) {
      const operation = item[key];
      if (!isJsonObject(operation)) continue;
      operations.push(buildOperation(path, method, operation, shared, context, joinPointer(pathPointer, key)));
    }
  }
  return operations;
}

function buildOperation(
  path: string,
  method: HttpMethod,
  operation: JsonObject,
  shared: ParameterIr[],
  context: Context,
  pointer: string,
): OperationIr {
  const own = parametersOf(operation['parameters'], { file: context.file, pointer: `${pointer}/parameters` });
  // Operation-level parameters override path-level ones of the same name and location.
  const merged = [...shared.filter((s) => !own.some((o) => o.name === s.name && o.in === s.in)), ...own].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  const operationId = typeof operation['operationId'] === 'string' ? operation['operationId'] : undefined;
  if (operationId === undefined)
    throw new GeneratorError('unsupported-schema', 'operation has no operationId', { file: context.file, pointer });
  const action = typeof operation['x-kubernetes-action'] === 'string' ? operation['x-kubernetes-action'] : undefined;
  const description = typeof operation['description'] === 'string' ? operation['description'] : '';
  const resource = resourceOfPath(path, context.gv);
  const namespacedResource = context.resources.some((r) => r.plural === resource && r.namespaced);
  return {
    operationId,
    name: clientFunctionName(operationId, context.gv),
    kind: operationKindOf(action, path, namespacedResource, { file: context.file, pointer }),
    action,
    method,
    path,
    pathBuilder: pathBuilderName(path, context.gv, context.resources),
    resource,
    description,
    // Upstream's prose deprecations are turned into the flag by markProseDeprecations (load/fixups/upstream-bugs.ts).
    deprecated: operation['deprecated'] === true,
    pathParameters: orderPathParameters(
      path,
      merged.filter((p) => p.in === 'path'),
    ),
    queryParameters: merged.filter((p) => p.in === 'query'),
    requestBody: requestBodyOf(operation['requestBody'], { file: context.file, pointer: `${pointer}/requestBody` }),
    responses: responsesOf(operation['responses'], { file: context.file, pointer: `${pointer}/responses` }),
  };
}

/** `readCoordinationV1NamespacedLease` → `readNamespacedLease`: the group and version are already in the import path. */
export function clientFunctionName(operationId: string, gv: GroupVersion): string {
  const groupWord = gv.group.split('.')[0]!;
  const infix =
    groupWord.charAt(0).toUpperCase() + groupWord.slice(1) + gv.version.charAt(0).toUpperCase() + gv.version.slice(1);
  return operationId.replace(infix, '');
}

/**
 * A list or watch outside `namespaces/{namespace}/` spans every namespace only when its resource is namespaced;
 * a cluster-scoped resource has no other list.
 */
function operationKindOf(
  action: string | undefined,
  path: string,
  namespacedResource: boolean,
  location: { file: string; pointer: string },
): OperationKind {
  const acrossNamespaces = namespacedResource && !path.includes('{namespace}');
  switch (action) {
    case undefined:
      if (path.endsWith('/')) return 'getAPIResources';
      break;
    case 'get':
      return 'read';
    case 'list':
      return acrossNamespaces ? 'listForAllNamespaces' : 'list';
    case 'post':
      return 'create';
    case 'put':
      return 'replace';
    case 'patch':
      return 'patch';
    case 'delete':
      return 'delete';
    case 'deletecollection':
      return 'deleteCollection';
    case 'watch':
      return 'watch';
    case 'watchlist':
      return acrossNamespaces ? 'watchListForAllNamespaces' : 'watchList';
  }
  throw new GeneratorError('unsupported-schema', `unknown x-kubernetes-action ${JSON.stringify(action)}`, location);
}

function orderPathParameters(path: string, parameters: ParameterIr[]): ParameterIr[] {
  const position = (p: ParameterIr): number => path.indexOf(`{${p.name}}`);
  return [...parameters].sort((a, b) => position(a) - position(b));
}

function parametersOf(value: unknown, location: { file: string; pointer: string }): ParameterIr[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((parameter, index): ParameterIr[] => {
    if (!isJsonObject(parameter)) return [];
    const where = parameter['in'];
    if (where !== 'path' && where !== 'query') return [];
    const pointer = `${location.pointer}/${index}`;
    return [
      {
        name: String(parameter['name']),
        in: where,
        type: typeRefOf(parameter['schema'], { file: location.file, pointer: `${pointer}/schema` }),
        required: parameter['required'] === true,
        description: typeof parameter['description'] === 'string' ? parameter['description'] : '',
      },
    ];
  });
}

function requestBodyOf(value: unknown, location: { file: string; pointer: string }): RequestBodyIr | undefined {
  if (!isJsonObject(value) || !isJsonObject(value['content'])) return undefined;
  const contentTypes = Object.keys(value['content']).sort();
  const first = contentTypes[0];
  const media = first === undefined ? undefined : value['content'][first];
  return {
    type: typeRefOf(isJsonObject(media) ? media['schema'] : undefined, {
      file: location.file,
      pointer: `${joinPointer(location.pointer, 'content', first ?? '')}/schema`,
    }),
    required: value['required'] === true,
    contentTypes,
  };
}

function responsesOf(value: unknown, location: { file: string; pointer: string }): ResponseIr[] {
  if (!isJsonObject(value)) return [];
  return Object.keys(value)
    .sort()
    .map((code) => {
      const response = value[code];
      const content = isJsonObject(response) && isJsonObject(response['content']) ? response['content'] : undefined;
      const contentTypes = content === undefined ? [] : Object.keys(content).sort();
      const first = contentTypes[0];
      const media = content !== undefined && first !== undefined ? content[first] : undefined;
      return {
        code,
        description:
          isJsonObject(response) && typeof response['description'] === 'string' ? response['description'] : '',
        type: isJsonObject(media)
          ? typeRefOf(media['schema'], {
              file: location.file,
              pointer: `${joinPointer(location.pointer, code, 'content', first ?? '')}/schema`,
            })
          : undefined,
        contentTypes,
      };
    });
}
