// The core/v1 Namespaces this server knows: enough of them for NamespaceLifecycle admission (a Lease
// can only be created in an existing namespace) and for `kubectl create namespace`.
//
// Deliberately small: a namespace is created (POST) or declared at start, read and listed; it is
// never deleted (DELETE answers 405: a real cluster terminates namespaces asynchronously through the
// namespace controller, which this server does not imitate). Namespaces have their own resourceVersion
// sequence, apart from the Leases' (clients compare resourceVersions within one resource only).
import { randomUUID } from 'node:crypto';
import type { JsonObject, JsonValue } from '../json.js';
import type { ResourceInfo } from '../lease-meta.js';
import { isJsonObject } from '../json.js';
import { generateNameSuffix, dns1123LabelErrors, labelValueErrors, qualifiedNameErrors } from '../names.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { FieldError, StatusError } from '../status.js';
import { invalid } from '../status.js';
import { formatTime } from '../time.js';
import { SYSTEM_NAMESPACES } from './namespace-names.js';

export const NAMESPACE_KIND = 'Namespace';
export const NAMESPACE_RESOURCE = 'namespaces';

/** core/v1 Namespace as response negotiation sees it (Table printer, PartialObjectMetadata errors). */
export const NAMESPACE_INFO: ResourceInfo = {
  version: 'v1',
  groupVersion: 'v1',
  kind: NAMESPACE_KIND,
  listKind: 'NamespaceList',
  plural: NAMESPACE_RESOURCE,
  singular: 'namespace',
  qualifiedResource: NAMESPACE_RESOURCE,
  qualifiedKind: NAMESPACE_KIND,
  typeMetaPrefix: `{"kind":"${NAMESPACE_KIND}","apiVersion":"v1",`,
};
/** The label kube-apiserver puts on every namespace (NamespaceDefaultLabelName, GA in 1.22). */
const NAME_LABEL = 'kubernetes.io/metadata.name';

/** As apimachinery's errors.NewNotFound(v1.Resource("namespaces"), name): the core group is empty, so omitted. */
export function namespaceNotFound(name: string): StatusError {
  return {
    code: 404,
    reason: 'NotFound',
    message: `${NAMESPACE_RESOURCE} ${JSON.stringify(name)} not found`,
    details: { name, kind: NAMESPACE_RESOURCE },
  };
}

export function namespaceAlreadyExists(name: string): StatusError {
  return {
    code: 409,
    reason: 'AlreadyExists',
    message: `${NAMESPACE_RESOURCE} ${JSON.stringify(name)} already exists`,
    details: { name, kind: NAMESPACE_RESOURCE },
  };
}

function stringMapErrors(
  value: JsonValue | undefined,
  field: string,
  keyErrors: (k: string) => string[],
  valueErrors: (v: string) => string[],
): FieldError[] {
  if (value === undefined || value === null) return [];
  if (!isJsonObject(value))
    return [
      { type: 'Invalid', field, value: JSON.stringify(value), detail: 'must be a map of string keys to string values' },
    ];
  const errors: FieldError[] = [];
  for (const [key, v] of Object.entries(value)) {
    for (const detail of keyErrors(key)) errors.push({ type: 'Invalid', field, value: key, detail });
    if (typeof v !== 'string')
      errors.push({ type: 'Invalid', field: `${field}[${key}]`, value: JSON.stringify(v), detail: 'must be a string' });
    else for (const detail of valueErrors(v)) errors.push({ type: 'Invalid', field, value: v, detail });
  }
  return errors;
}

function stringMap(value: JsonValue | undefined): Record<string, string> {
  if (!isJsonObject(value)) return {};
  // fromEntries defines own properties, so a "__proto__" key can never reach a prototype.
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

export class NamespaceRegistry {
  readonly #items = new Map<string, JsonObject>();
  #resourceVersion = 0;
  readonly #now: () => number;

  constructor(now: () => number, declared: readonly string[]) {
    this.#now = now;
    for (const name of [...SYSTEM_NAMESPACES, ...declared])
      if (!this.#items.has(name)) this.#store(this.#build(name, {}, {}));
  }

  has(name: string): boolean {
    return this.#items.has(name);
  }

  get(name: string): JsonObject | undefined {
    return this.#items.get(name);
  }

  get resourceVersion(): string {
    return String(this.#resourceVersion);
  }

  /** Sorted by name, as etcd returns keys. */
  list(): JsonObject[] {
    return [...this.#items.keys()].sort().flatMap((name) => {
      const item = this.#items.get(name);
      return item === undefined ? [] : [item];
    });
  }

  /** POST /api/v1/namespaces with a decoded body: the new Namespace, or the Status kube-apiserver answers. */
  create(body: JsonValue, dryRun: boolean): Result<JsonObject, StatusError> {
    const meta = isJsonObject(body) && isJsonObject(body['metadata']) ? body['metadata'] : {};
    const given = typeof meta['name'] === 'string' ? meta['name'] : '';
    const generateName = typeof meta['generateName'] === 'string' ? meta['generateName'] : '';
    const name = given === '' && generateName !== '' ? `${generateName}${generateNameSuffix()}` : given;
    const errors: FieldError[] =
      name === ''
        ? [{ type: 'Required', field: 'metadata.name', detail: 'name or generateName is required' }]
        : dns1123LabelErrors(name).map((detail) => ({ type: 'Invalid', field: 'metadata.name', value: name, detail }));
    errors.push(...stringMapErrors(meta['labels'], 'metadata.labels', qualifiedNameErrors, labelValueErrors));
    errors.push(...stringMapErrors(meta['annotations'], 'metadata.annotations', qualifiedNameErrors, () => []));
    if (errors.length > 0) return err(invalid(name, errors, NAMESPACE_KIND));
    if (this.#items.has(name)) return err(namespaceAlreadyExists(name));
    const built = this.#build(name, stringMap(meta['labels']), stringMap(meta['annotations']));
    if (!dryRun) return ok(this.#store(built));
    // A dry run is never stored, so it has no resourceVersion (omitempty drops the empty string).
    const { resourceVersion: _rv, ...unversioned } = isJsonObject(built['metadata']) ? built['metadata'] : {};
    return ok({ ...built, metadata: unversioned });
  }

  #build(name: string, labels: Record<string, string>, annotations: Record<string, string>): JsonObject {
    const metadata: JsonObject = {
      name,
      uid: randomUUID(),
      resourceVersion: '',
      creationTimestamp: formatTime(this.#now()),
      labels: { ...labels, [NAME_LABEL]: name },
    };
    if (Object.keys(annotations).length > 0) metadata['annotations'] = annotations;
    return {
      kind: NAMESPACE_KIND,
      apiVersion: 'v1',
      metadata,
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    };
  }

  #store(built: JsonObject): JsonObject {
    this.#resourceVersion++;
    const meta = isJsonObject(built['metadata']) ? built['metadata'] : {};
    const stored: JsonObject = { ...built, metadata: { ...meta, resourceVersion: String(this.#resourceVersion) } };
    this.#items.set(typeof meta['name'] === 'string' ? meta['name'] : '', stored);
    return stored;
  }
}
