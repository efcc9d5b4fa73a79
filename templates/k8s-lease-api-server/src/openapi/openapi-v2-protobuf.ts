// The Swagger 2.0 document as gnostic's openapi_v2.Document protobuf (google/gnostic-models
// openapiv2/OpenAPIv2.proto), the form kubectl asks /openapi/v2 for (kube-openapi pkg/handler ToProtoBinary).
// Field numbers are gnostic's; values that gnostic keeps as YAML (defaults, enums, extensions) are written as
// JSON text, which is YAML too.
import type { JsonObject, JsonValue } from '../json.js';
import { isJsonObject } from '../json.js';
import type { ProtoField } from './protobuf.js';
import { encodeMessage } from './protobuf.js';

type Fields = ProtoField[];

const text = (field: number, value: JsonValue | undefined): Fields =>
  typeof value === 'string' ? [{ field, value }] : [];
const flag = (field: number, value: JsonValue | undefined): Fields =>
  typeof value === 'boolean' ? [{ field, value }] : [];
const int = (field: number, value: JsonValue | undefined): Fields =>
  typeof value === 'number' ? [{ field, value: { int: value } }] : [];
const double = (field: number, value: JsonValue | undefined): Fields =>
  typeof value === 'number' ? [{ field, value: { double: value } }] : [];
const strings = (field: number, value: JsonValue | undefined): Fields =>
  Array.isArray(value) ? value.filter((v) => typeof v === 'string').map((v) => ({ field, value: v })) : [];
const message = (field: number, value: Fields): Fields => [{ field, value }];

/** Any { yaml = 2 }. */
const any = (value: JsonValue): Fields => [{ field: 2, value: `${JSON.stringify(value)}\n` }];
const anyAt = (field: number, value: JsonValue | undefined): Fields =>
  value === undefined ? [] : message(field, any(value));
const anyList = (field: number, value: JsonValue | undefined): Fields =>
  Array.isArray(value) ? value.flatMap((v) => message(field, any(v))) : [];

/** NamedAny { name = 1; Any value = 2 } for every `x-` key. */
function extensions(field: number, object: JsonObject): Fields {
  return Object.entries(object)
    .filter(([key]) => key.startsWith('x-'))
    .flatMap(([name, value]) => message(field, [{ field: 1, value: name }, ...message(2, any(value))]));
}

const named = (field: number, name: string, value: Fields): Fields =>
  message(field, [{ field: 1, value: name }, ...message(2, value)]);

/** Schema (OpenAPIv2.proto message Schema). */
function schema(s: JsonValue | undefined): Fields {
  if (!isJsonObject(s)) return [];
  const items = s['items'];
  const additional = s['additionalProperties'];
  const properties = s['properties'];
  return [
    ...text(1, s['$ref']),
    ...text(2, s['format']),
    ...text(3, s['title']),
    ...text(4, s['description']),
    ...anyAt(5, s['default']),
    ...double(6, s['multipleOf']),
    ...double(7, s['maximum']),
    ...flag(8, s['exclusiveMaximum']),
    ...double(9, s['minimum']),
    ...flag(10, s['exclusiveMinimum']),
    ...int(11, s['maxLength']),
    ...int(12, s['minLength']),
    ...text(13, s['pattern']),
    ...int(14, s['maxItems']),
    ...int(15, s['minItems']),
    ...flag(16, s['uniqueItems']),
    ...int(17, s['maxProperties']),
    ...int(18, s['minProperties']),
    ...strings(19, s['required']),
    ...anyList(20, s['enum']),
    // AdditionalPropertiesItem { Schema schema = 1; bool boolean = 2 }
    ...(typeof additional === 'boolean'
      ? message(21, [{ field: 2, value: additional }])
      : isJsonObject(additional)
        ? message(21, message(1, schema(additional)))
        : []),
    // TypeItem { repeated string value = 1 }
    ...(typeof s['type'] === 'string' ? message(22, [{ field: 1, value: s['type'] }]) : []),
    // ItemsItem { repeated Schema schema = 1 }
    ...(items === undefined
      ? []
      : message(
          23,
          (Array.isArray(items) ? items : [items]).flatMap((item) => message(1, schema(item))),
        )),
    ...(Array.isArray(s['allOf']) ? s['allOf'].flatMap((part) => message(24, schema(part))) : []),
    // Properties { repeated NamedSchema additional_properties = 1 }
    ...(isJsonObject(properties)
      ? message(
          25,
          Object.entries(properties).flatMap(([name, property]) => named(1, name, schema(property))),
        )
      : []),
    ...text(26, s['discriminator']),
    ...flag(27, s['readOnly']),
    ...anyAt(30, s['example']),
    ...extensions(31, s),
  ];
}

/** PrimitivesItems, the `items` of an array parameter. */
function primitivesItems(p: JsonValue | undefined): Fields {
  if (!isJsonObject(p)) return [];
  return [
    ...text(1, p['type']),
    ...text(2, p['format']),
    ...(isJsonObject(p['items']) ? message(3, primitivesItems(p['items'])) : []),
    ...text(4, p['collectionFormat']),
    ...anyAt(5, p['default']),
    ...anyList(16, p['enum']),
  ];
}

/**
 * Header, path and query sub-schemas share their layout, except that the query's allow_empty_value (5) shifts
 * the fields after it by one.
 */
function nonBodySubSchema(p: JsonObject, query: boolean): Fields {
  const shift = query ? 1 : 0;
  return [
    ...flag(1, p['required']),
    ...text(2, p['in']),
    ...text(3, p['description']),
    ...text(4, p['name']),
    ...(query ? flag(5, p['allowEmptyValue']) : []),
    ...text(5 + shift, p['type']),
    ...text(6 + shift, p['format']),
    ...(isJsonObject(p['items']) ? message(7 + shift, primitivesItems(p['items'])) : []),
    ...text(8 + shift, p['collectionFormat']),
    ...anyAt(9 + shift, p['default']),
    ...double(10 + shift, p['maximum']),
    ...double(12 + shift, p['minimum']),
    ...int(14 + shift, p['maxLength']),
    ...int(15 + shift, p['minLength']),
    ...text(16 + shift, p['pattern']),
    ...flag(19 + shift, p['uniqueItems']),
    ...anyList(20 + shift, p['enum']),
    ...extensions(22 + shift, p),
  ];
}

/** NonBodyParameter's oneof: header 1, formData 2, query 3, path 4. */
const NON_BODY: Record<string, number> = { header: 1, formData: 2, query: 3, path: 4 };

/** ParametersItem { Parameter parameter = 1; JsonReference json_reference = 2 }. */
function parametersItem(field: number, p: JsonValue): Fields {
  if (!isJsonObject(p)) return [];
  if (typeof p['$ref'] === 'string') return message(field, message(2, text(1, p['$ref'])));
  const location = typeof p['in'] === 'string' ? p['in'] : '';
  if (location === 'body') {
    const body = [
      ...text(1, p['description']),
      ...text(2, p['name']),
      ...text(3, p['in']),
      ...flag(4, p['required']),
      ...message(5, schema(p['schema'])),
      ...extensions(6, p),
    ];
    return message(field, message(1, message(1, body)));
  }
  const kind = NON_BODY[location];
  if (kind === undefined) return [];
  return message(field, message(1, message(2, message(kind, nonBodySubSchema(p, location === 'query')))));
}

/** Responses { repeated NamedResponseValue response_code = 1 }; ResponseValue { Response response = 1 }. */
function responses(r: JsonValue | undefined): Fields {
  if (!isJsonObject(r)) return [];
  return Object.entries(r).flatMap(([code, response]) => {
    if (!isJsonObject(response)) return [];
    const body = [
      ...text(1, response['description']),
      // SchemaItem { Schema schema = 1 }
      ...(response['schema'] === undefined ? [] : message(2, message(1, schema(response['schema'])))),
      ...extensions(5, response),
    ];
    return named(1, code, message(1, body));
  });
}

function operation(o: JsonObject): Fields {
  const parameters = o['parameters'];
  return [
    ...strings(1, o['tags']),
    ...text(2, o['summary']),
    ...text(3, o['description']),
    ...text(5, o['operationId']),
    ...strings(6, o['produces']),
    ...strings(7, o['consumes']),
    ...(Array.isArray(parameters) ? parameters.flatMap((p) => parametersItem(8, p)) : []),
    ...message(9, responses(o['responses'])),
    ...strings(10, o['schemes']),
    ...flag(11, o['deprecated']),
    ...extensions(13, o),
  ];
}

const PATH_ITEM_METHODS: [string, number][] = [
  ['get', 2],
  ['put', 3],
  ['post', 4],
  ['delete', 5],
  ['options', 6],
  ['head', 7],
  ['patch', 8],
];

function pathItem(item: JsonObject): Fields {
  const parameters = item['parameters'];
  return [
    ...PATH_ITEM_METHODS.flatMap(([method, field]) => {
      const o = item[method];
      return isJsonObject(o) ? message(field, operation(o)) : [];
    }),
    ...(Array.isArray(parameters) ? parameters.flatMap((p) => parametersItem(9, p)) : []),
    ...extensions(10, item),
  ];
}

/** SecurityDefinitions of apiKey schemes (ApiKeySecurity is SecurityDefinitionsItem's oneof 2), the only kind kube-apiserver lists. */
function securityDefinitions(d: JsonValue | undefined): Fields {
  if (!isJsonObject(d)) return [];
  return Object.entries(d).flatMap(([name, item]) => {
    if (!isJsonObject(item) || item['type'] !== 'apiKey') return [];
    const apiKey = [
      ...text(1, item['type']),
      ...text(2, item['name']),
      ...text(3, item['in']),
      ...text(4, item['description']),
    ];
    return named(1, name, message(2, apiKey));
  });
}

/** SecurityRequirement { repeated NamedStringArray additional_properties = 1 }. */
function security(list: JsonValue | undefined): Fields {
  if (!Array.isArray(list)) return [];
  return list.flatMap((requirement) =>
    isJsonObject(requirement)
      ? message(
          12,
          Object.entries(requirement).flatMap(([name, scopes]) => named(1, name, strings(1, scopes))),
        )
      : [],
  );
}

export function openApiV2Protobuf(document: JsonObject): Buffer {
  const info = isJsonObject(document['info']) ? document['info'] : {};
  const paths = isJsonObject(document['paths']) ? document['paths'] : {};
  const definitions = isJsonObject(document['definitions']) ? document['definitions'] : {};
  return encodeMessage([
    ...text(1, document['swagger']),
    ...message(2, [...text(1, info['title']), ...text(2, info['version']), ...text(3, info['description'])]),
    ...message(
      8,
      Object.entries(paths).flatMap(([path, item]) => (isJsonObject(item) ? named(2, path, pathItem(item)) : [])),
    ),
    ...message(
      9,
      Object.entries(definitions).flatMap(([name, definition]) => named(1, name, schema(definition))),
    ),
    ...security(document['security']),
    ...message(13, securityDefinitions(document['securityDefinitions'])),
  ]);
}
