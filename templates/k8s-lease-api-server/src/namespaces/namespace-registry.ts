// The core/v1 Namespaces this server knows: enough of them for NamespaceLifecycle admission (a Lease
// can only be created in an existing namespace, never in a terminating one), `kubectl create namespace`
// and `kubectl delete namespace`. A namespace is created (POST) or declared at start, read, listed and
// watched, deleted in two steps (namespace-delete.ts marks it, the namespace controller empties and
// finalizes it). Namespaces live in a store of their own, with their own resourceVersion sequence
// apart from the Leases' (clients compare resourceVersions within one resource only); its keys are
// "/<name>", the form of a key without a namespace, so LIST and watch code serve it unchanged.
import { randomUUID } from 'node:crypto';
import type { JsonObject, JsonValue } from '../json.js';
import type { ResourceInfo } from '../lease-meta.js';
import { isJsonObject } from '../json.js';
import { generateNameSuffix, dns1123LabelErrors, labelValueErrors, qualifiedNameErrors } from '../names.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { FieldError, StatusError } from '../status.js';
import { invalid } from '../status.js';
import { LeaseStore, storeKey } from '../store/lease-store.js';
import { formatTime } from '../time.js';
import {
  admitNamespaceDelete,
  checkNamespacePreconditions,
  isReleased,
  isTerminating,
  markTerminating,
  type NamespaceDeleteOptions,
  metadataFinalizers,
} from './namespace-delete.js';
import { namespaceAlreadyExists, namespaceNotFound, NAMESPACE_RESOURCE } from './namespace-errors.js';
import { SYSTEM_NAMESPACES } from './namespace-names.js';

export { namespaceAlreadyExists, namespaceNotFound } from './namespace-errors.js';

export const NAMESPACE_KIND = 'Namespace';
export { NAMESPACE_RESOURCE };

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

/** What a DELETE or a finalize did: the namespace as the answer shows it, and whether it is gone. */
export interface NamespaceWriteOutcome {
  object: JsonObject;
  deleted: boolean;
}

/** How many events of namespace history a watch may resume from. */
const NAMESPACE_HISTORY = 10_000;

export class NamespaceRegistry {
  /** Every namespace, keyed "/<name>"; watches and the namespace controller subscribe to it. */
  readonly store: LeaseStore = new LeaseStore(NAMESPACE_HISTORY, 0);
  readonly #now: () => number;

  constructor(now: () => number, declared: readonly string[]) {
    this.#now = now;
    for (const name of [...SYSTEM_NAMESPACES, ...declared])
      if (!this.has(name)) this.store.commit(storeKey('', name), this.#build(name, {}, {}));
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  get(name: string): JsonObject | undefined {
    return this.store.get(storeKey('', name));
  }

  /** Whether the namespace exists and is being deleted (NamespaceLifecycle refuses creates into it). */
  isTerminating(name: string): boolean {
    const ns = this.get(name);
    return ns !== undefined && isTerminating(ns);
  }

  get resourceVersion(): string {
    return String(this.store.resourceVersion);
  }

  /** Sorted by name, as etcd returns keys. */
  list(): JsonObject[] {
    return this.store.current().objectsIn(undefined);
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
    const existing = this.get(name);
    if (existing !== undefined) return err(namespaceAlreadyExists(name, isTerminating(existing)));
    const built = this.#build(name, stringMap(meta['labels']), stringMap(meta['annotations']));
    if (!dryRun) return ok(this.#commit(name, built));
    // A dry run is never stored, so it has no resourceVersion (omitempty drops the empty string).
    const { resourceVersion: _rv, ...unversioned } = isJsonObject(built['metadata']) ? built['metadata'] : {};
    return ok({ ...built, metadata: unversioned });
  }

  /**
   * DELETE /api/v1/namespaces/{name} (REST.Delete): the first marks the namespace Terminating and answers
   * it; a later one answers it unchanged while spec.finalizers remain, else deletes it unless metadata
   * finalizers keep it.
   */
  delete(name: string, options: NamespaceDeleteOptions): Result<NamespaceWriteOutcome, StatusError> {
    const existing = this.get(name);
    if (existing === undefined) return err(namespaceNotFound(name));
    const pre = checkNamespacePreconditions(existing, options);
    if (!pre.ok) return pre;
    if (!isTerminating(existing)) {
      const admitted = admitNamespaceDelete(name);
      if (!admitted.ok) return admitted;
      const marked = markTerminating(existing, options, this.#now());
      return ok({ object: options.dryRun ? marked : this.#commit(name, marked), deleted: false });
    }
    if (!isReleased(existing)) return ok({ object: existing, deleted: false });
    if (!options.dryRun) this.store.commit(storeKey('', name), undefined);
    return ok({ object: existing, deleted: true });
  }

  /**
   * PUT /api/v1/namespaces/{name}/finalize (FinalizeREST.Update with the finalize strategy): spec.finalizers
   * replaced, nothing else; a terminating namespace left with no finalizers is deleted by the update.
   */
  finalize(name: string, finalizers: string[], dryRun: boolean): Result<NamespaceWriteOutcome, StatusError> {
    const existing = this.get(name);
    if (existing === undefined) return err(namespaceNotFound(name));
    const spec = isJsonObject(existing['spec']) ? existing['spec'] : {};
    const next: JsonObject = { ...existing, spec: { ...spec, finalizers } };
    if (finalizers.length === 0) delete (next['spec'] as JsonObject)['finalizers'];
    return ok(this.#write(name, next, dryRun));
  }

  /** The namespace controller's UpdateStatus: the conditions it keeps in status.conditions. */
  setConditions(name: string, conditions: JsonValue[]): void {
    const existing = this.get(name);
    if (existing === undefined) return;
    const status = isJsonObject(existing['status']) ? existing['status'] : {};
    this.#commit(name, { ...existing, status: { ...status, conditions } });
  }

  /**
   * The garbage collector's part for a namespace: once it has no dependents left, the orphan and
   * foregroundDeletion finalizers come off (a namespace owns nothing here once emptied).
   */
  releaseMetadataFinalizers(name: string, release: readonly string[]): void {
    const existing = this.get(name);
    if (existing === undefined) return;
    const kept = metadataFinalizers(existing).filter((f) => !release.includes(f));
    const { finalizers: _gone, ...meta } = isJsonObject(existing['metadata']) ? existing['metadata'] : {};
    this.#write(name, { ...existing, metadata: kept.length > 0 ? { ...meta, finalizers: kept } : meta }, false);
  }

  /** An update, deleting instead when it releases a terminating namespace (ShouldDeleteNamespaceDuringUpdate). */
  #write(name: string, next: JsonObject, dryRun: boolean): NamespaceWriteOutcome {
    const deleted = isReleased(next);
    if (dryRun) return { object: next, deleted };
    if (!deleted) return { object: this.#commit(name, next), deleted };
    const event = this.store.commit(storeKey('', name), undefined);
    return { object: event?.object ?? next, deleted };
  }

  #commit(name: string, next: JsonObject): JsonObject {
    return this.store.commit(storeKey('', name), next)?.object ?? next;
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
}
