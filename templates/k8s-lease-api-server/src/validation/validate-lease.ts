// Semantic validation of a decoded Lease (pkg/apis/coordination/validation plus ObjectMeta rules).
import type { JsonObject, JsonValue } from '../json.js';
import { isJsonObject, numberAt, objectAt, stringAt } from '../json.js';
import { dns1123LabelErrors, dns1123SubdomainErrors, labelValueErrors, qualifiedNameErrors } from '../names.js';
import type { FieldError } from '../status.js';

const KNOWN_STRATEGIES = ['OldestEmulationVersion'];
const MAX_ANNOTATIONS_BYTES = 256 * 1024;

function invalidEach(field: string, value: JsonValue, messages: string[]): FieldError[] {
  return messages.map((detail) => ({ type: 'Invalid', field, value, detail }));
}

// apimachinery's maskTrailingDash: a prefix may end in '-', checked as if its last two characters were "a".
function maskTrailingDash(prefix: string): string {
  return prefix.length > 1 && prefix.endsWith('-') ? `${prefix.slice(0, -2)}a` : prefix;
}

/** A resource's name rule, e.g. DNS-1123 subdomain (Lease) or a ConfigMap key (LeaseCandidate). */
export type NameRule = (name: string, prefix: boolean) => string[];

const dns1123SubdomainName: NameRule = (name, prefix) => dns1123SubdomainErrors(prefix ? maskTrailingDash(name) : name);

/** As ValidateObjectMetaAccessor: generateName is checked as a prefix whenever it is set, name whenever it is. */
function validateName(meta: JsonObject, rule: NameRule): FieldError[] {
  const name = stringAt(meta, 'name') ?? '';
  const generateName = stringAt(meta, 'generateName') ?? '';
  const errors =
    generateName === '' ? [] : invalidEach('metadata.generateName', generateName, rule(generateName, true));
  if (name === '')
    return [...errors, { type: 'Required', field: 'metadata.name', detail: 'name or generateName is required' }];
  return [...errors, ...invalidEach('metadata.name', name, rule(name, false))];
}

function validateNamespace(meta: JsonObject): FieldError[] {
  const namespace = stringAt(meta, 'namespace') ?? '';
  if (namespace === '') return [{ type: 'Required', field: 'metadata.namespace' }];
  return invalidEach('metadata.namespace', namespace, dns1123LabelErrors(namespace));
}

function validateLabels(meta: JsonObject): FieldError[] {
  const labels = objectAt(meta, 'labels') ?? {};
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(labels)) {
    errors.push(...invalidEach('metadata.labels', key, qualifiedNameErrors(key)));
    if (typeof value === 'string') errors.push(...invalidEach('metadata.labels', value, labelValueErrors(value)));
  }
  return errors;
}

function validateAnnotations(meta: JsonObject): FieldError[] {
  const annotations = objectAt(meta, 'annotations') ?? {};
  const errors: FieldError[] = [];
  let size = 0;
  for (const [key, value] of Object.entries(annotations)) {
    errors.push(...invalidEach('metadata.annotations', key.toLowerCase(), qualifiedNameErrors(key.toLowerCase())));
    // Go's len(): UTF-8 bytes, not UTF-16 units (ValidateAnnotationsSize).
    size += Buffer.byteLength(key, 'utf8') + (typeof value === 'string' ? Buffer.byteLength(value, 'utf8') : 0);
  }
  if (size > MAX_ANNOTATIONS_BYTES) {
    errors.push({
      type: 'TooLong',
      field: 'metadata.annotations',
      detail: `may not be more than ${MAX_ANNOTATIONS_BYTES} bytes`,
    });
  }
  return errors;
}

function validateOwnerReferences(meta: JsonObject): FieldError[] {
  const owners = meta['ownerReferences'];
  if (!Array.isArray(owners)) return [];
  const errors: FieldError[] = [];
  let controllers = 0;
  for (const owner of owners) {
    if (!isJsonObject(owner)) continue;
    const required: [string, string][] = [
      ['apiVersion', 'version must not be empty'],
      ['kind', 'kind must not be empty'],
      ['name', 'name must not be empty'],
      ['uid', 'uid must not be empty'],
    ];
    for (const [key, detail] of required) {
      if ((stringAt(owner, key) ?? '') === '')
        errors.push({ type: 'Invalid', field: `metadata.ownerReferences.${key}`, value: '', detail });
    }
    if (owner['controller'] === true) controllers++;
  }
  if (controllers > 1) {
    errors.push({
      type: 'Invalid',
      field: 'metadata.ownerReferences',
      value: owners,
      detail: 'Only one reference can have Controller set to true',
    });
  }
  return errors;
}

function validateFinalizers(meta: JsonObject): FieldError[] {
  const finalizers = meta['finalizers'];
  if (!Array.isArray(finalizers)) return [];
  return finalizers.flatMap((f, i) =>
    typeof f === 'string' ? invalidEach(`metadata.finalizers[${i}]`, f, qualifiedNameErrors(f)) : [],
  );
}

/** ValidateCoordinatedLeaseStrategy: a Kubernetes-defined name, or a qualified name with a '/' (a custom strategy). */
export function validateStrategy(strategy: string, field = 'spec.strategy'): FieldError[] {
  if (!strategy.includes('/')) {
    return KNOWN_STRATEGIES.includes(strategy)
      ? []
      : [{ type: 'NotSupported', field, value: strategy, supported: KNOWN_STRATEGIES }];
  }
  return invalidEach(field, strategy, qualifiedNameErrors(strategy));
}

export function validateLeaseSpec(spec: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  const duration = numberAt(spec, 'leaseDurationSeconds');
  if (duration !== undefined && duration <= 0) {
    errors.push({
      type: 'Invalid',
      field: 'spec.leaseDurationSeconds',
      value: duration,
      detail: 'must be greater than 0',
    });
  }
  const transitions = numberAt(spec, 'leaseTransitions');
  if (transitions !== undefined && transitions < 0) {
    errors.push({
      type: 'Invalid',
      field: 'spec.leaseTransitions',
      value: transitions,
      detail: 'must be greater than or equal to 0',
    });
  }
  const strategy = stringAt(spec, 'strategy');
  if (strategy !== undefined) errors.push(...validateStrategy(strategy));
  const preferred = stringAt(spec, 'preferredHolder');
  if (preferred !== undefined && preferred !== '' && (strategy === undefined || strategy === '')) {
    errors.push({
      type: 'Forbidden',
      field: 'spec.preferredHolder',
      detail: 'may only be specified if `strategy` is defined',
    });
  }
  return errors;
}

/** ValidateObjectMeta for a namespaced object; names are DNS-1123 subdomains unless `rule` says otherwise. */
export function validateObjectMeta(meta: JsonObject, rule: NameRule = dns1123SubdomainName): FieldError[] {
  return [
    ...validateName(meta, rule),
    ...validateNamespace(meta),
    ...validateLabels(meta),
    ...validateAnnotations(meta),
    ...validateOwnerReferences(meta),
    ...validateFinalizers(meta),
  ];
}

/** All semantic errors of a Lease about to be stored; empty when valid. */
export function validateLease(lease: JsonObject): FieldError[] {
  return [
    ...validateObjectMeta(objectAt(lease, 'metadata') ?? {}),
    ...validateLeaseSpec(objectAt(lease, 'spec') ?? {}),
  ];
}
