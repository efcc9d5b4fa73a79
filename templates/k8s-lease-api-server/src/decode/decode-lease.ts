// Schema-driven decoding of a Lease (or LeaseCandidate) body: drops (and reports) unknown fields, rejects wrong types and
// malformed timestamps the way the Go decoder would, and normalises timestamps to the stored form.
import type { JsonObject, JsonValue } from '../json.js';
import { isJsonObject, setOwn } from '../json.js';
import { compareGoStrings } from '../go-strings.js';
import type { ResourceInfo } from '../lease-meta.js';
import { GROUP, LEASE_RESOURCE } from '../lease-meta.js';
import { checkBodyType } from '../operations/type-meta.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { FieldSchema, ObjectSchema } from '../schema/field-schema.js';
import { parseMicroTime, parseTime } from '../time.js';

export interface DecodedLease {
  object: JsonObject;
  unknownFields: string[];
}

class DecodeFailure {
  constructor(readonly message: string) {}
}

export function cannotHandlePrefix(resource: ResourceInfo): string {
  return `${resource.kind} in version "${resource.version}" cannot be handled as a ${resource.kind}: `;
}

function jsonTypeName(value: JsonValue): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'object';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return 'number';
  return 'string';
}

function goTypeName(schema: FieldSchema): string {
  switch (schema.type) {
    case 'object':
      return `v1.${schema.goName}`;
    case 'map':
      return `map[string]${goTypeName(schema.values)}`;
    case 'array':
      return `[]${goTypeName(schema.items)}`;
    case 'integer':
      return schema.format;
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'time':
      return 'v1.Time';
    case 'microTime':
      return 'v1.MicroTime';
    default:
      return 'string';
  }
}

/** The order the decoder meets an object's keys in (LeaseDecoder). */
export type KeyOrder = 'document' | 'sorted';

function joinPath(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

class LeaseDecoder {
  readonly unknown: string[] = [];

  /**
   * numbers: the body's literal text of non-plain-integer numbers by path (see ParsedJson.numbers). `order`:
   * the order Go's decoder meets an object's keys in: the body's, or sorted where the JSON it decodes was
   * json.Marshal'ed from a Go map (YAMLToJSON, a merge or JSON patch's result).
   */
  constructor(
    private readonly numbers: ReadonlyMap<string, string>,
    private readonly order: KeyOrder,
  ) {}

  private typeError(value: JsonValue, schema: FieldSchema, structName: string, path: string): never {
    const shown = typeof value === 'number' ? `number ${this.numbers.get(path) ?? String(value)}` : jsonTypeName(value);
    throw new DecodeFailure(
      `json: cannot unmarshal ${shown} into Go struct field ${structName}.${path} of type ${goTypeName(schema)}`,
    );
  }

  decode(value: JsonValue, schema: FieldSchema, structName: string, path: string): JsonValue | undefined {
    if (value === null) return undefined;
    switch (schema.type) {
      case 'any':
        return value;
      case 'object':
        return this.decodeObject(value, schema, structName, path);
      case 'map': {
        if (!isJsonObject(value)) return this.typeError(value, schema, structName, path);
        const out: JsonObject = {};
        for (const [key, child] of Object.entries(value)) {
          const decoded = this.decode(child, schema.values, structName, path);
          if (decoded !== undefined) setOwn(out, key, decoded);
        }
        return out;
      }
      case 'array': {
        if (!Array.isArray(value)) return this.typeError(value, schema, structName, path);
        const out: JsonValue[] = [];
        value.forEach((item, i) => {
          const decoded = this.decode(item, schema.items, structName, `${path}[${i}]`);
          out.push(decoded === undefined ? (schema.items.type === 'object' ? {} : '') : decoded);
        });
        return out;
      }
      case 'string':
        return typeof value === 'string' ? value : this.typeError(value, schema, structName, path);
      case 'boolean':
        return typeof value === 'boolean' ? value : this.typeError(value, schema, structName, path);
      case 'number':
        return typeof value === 'number' ? value : this.typeError(value, schema, structName, path);
      case 'integer': {
        // Go's decoder runs strconv.ParseInt on the literal, so 1e3 and 1.0 are not integers (decode.go literalStore).
        if (typeof value !== 'number' || !Number.isInteger(value) || this.numbers.has(path))
          return this.typeError(value, schema, structName, path);
        if (schema.format === 'int32' && (value < INT32_MIN || value > INT32_MAX))
          return this.typeError(value, schema, structName, path);
        return value;
      }
      case 'time':
      case 'microTime': {
        if (typeof value !== 'string') return this.typeError(value, schema, structName, path);
        if (value === '') return undefined;
        const parsed = schema.type === 'time' ? parseTime(value) : parseMicroTime(value);
        if (!parsed.ok) throw new DecodeFailure(parsed.error);
        return parsed.value;
      }
    }
  }

  decodeObject(value: JsonValue, schema: ObjectSchema, structName: string, path: string): JsonObject {
    if (!isJsonObject(value)) return this.typeError(value, schema, structName, path);
    const entries = Object.entries(value);
    const visited = this.order === 'sorted' ? [...entries].sort(([a], [b]) => compareGoStrings(a, b)) : entries;
    const decoded = new Map<string, JsonValue>();
    for (const [key, child] of visited) {
      const childPath = joinPath(path, key);
      const fieldSchema = schema.fields.get(key);
      if (fieldSchema === undefined) {
        this.unknown.push(childPath);
        continue;
      }
      const field = this.decode(child, fieldSchema, schema.goName, childPath);
      if (field !== undefined) decoded.set(key, field);
    }
    // The object keeps the body's key order whatever order it was decoded in.
    const out: JsonObject = {};
    for (const [key] of entries) {
      const field = decoded.get(key);
      if (field !== undefined) out[key] = field;
    }
    return out;
  }
}

/**
 * Checks the body's kind/apiVersion against the resource the URL names, with the URL's type filling in
 * what the body leaves out (operations/type-meta.ts has the decoder's rules and messages).
 */
export function checkTypeMeta(body: JsonObject, resource: ResourceInfo = LEASE_RESOURCE): Result<void, string> {
  return checkBodyType(body['kind'], body['apiVersion'], {
    group: GROUP,
    version: resource.version,
    kind: resource.kind,
    internalPackage: 'coordination',
  });
}

/**
 * Decodes a parsed body into a Lease; the error string is the full 400 message. With `bare`, a field's
 * decoding error is the decoder's own text, as a patched object's is (patch.go quotes err.Error()).
 */
export function decodeLease(
  value: JsonValue,
  schema: ObjectSchema,
  numbers: ReadonlyMap<string, string> = new Map(),
  resource: ResourceInfo = LEASE_RESOURCE,
  bare = false,
  order: KeyOrder = 'document',
): Result<DecodedLease, string> {
  if (!isJsonObject(value)) {
    return err(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonTypeName(value)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  }
  const typeMeta = checkTypeMeta(value, resource);
  if (!typeMeta.ok) return typeMeta;
  const decoder = new LeaseDecoder(numbers, order);
  try {
    const object = decoder.decodeObject(value, schema, schema.goName, '');
    return ok({ object, unknownFields: decoder.unknown });
  } catch (e) {
    if (e instanceof DecodeFailure) return err(bare ? e.message : cannotHandlePrefix(resource) + e.message);
    throw e;
  }
}
