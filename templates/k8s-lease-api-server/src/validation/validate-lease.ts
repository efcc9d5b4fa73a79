// Semantic validation of a decoded Lease (pkg/apis/coordination/validation plus ObjectMeta rules).
import type { JsonObject } from '../json.js';
import { isJsonObject, numberAt, objectAt, stringAt } from '../json.js';
import { dns1123LabelErrors, dns1123SubdomainErrors, labelValueErrors, qualifiedNameErrors } from '../names.js';
import { releaseMinor } from '../release.js';
import type { BadValue, ValueStyle } from '../field-value.js';
import { valueStyleFor } from '../field-value.js';
import type { FieldError } from '../status.js';
import { validateUidUpdate } from './object-meta-update.js';

const KNOWN_STRATEGIES = ['OldestEmulationVersion'];
const MAX_ANNOTATIONS_BYTES = 256 * 1024;

function invalidEach(field: string, value: string, messages: string[]): FieldError[] {
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
    // ValidateAnnotations: the rule is checked on the lowercased key, the error quotes the key as sent.
    errors.push(...invalidEach('metadata.annotations', key, qualifiedNameErrors(key.toLowerCase())));
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

/**
 * How apimachinery words an empty owner reference field: "kind must not be empty" up to 1.33, "must not be
 * empty" from 1.34 (objectmeta.go validateOwnerReference, commit 5937fdff "Remove field name from invalid
 * field detail message").
 */
export type OwnerReferenceWording = 'named' | 'plain';

/** The wording of a release, e.g. '1.33.1' → 'named'. */
export function ownerReferenceWording(release: string): OwnerReferenceWording {
  return releaseMinor(release) <= 33 ? 'named' : 'plain';
}

/**
 * schema.ParseGroupVersion: no '/' is the core group's version, one splits group from version, more is an
 * error, which FromAPIVersionAndKind turns into an empty group and version ("" and "/" come out empty too).
 */
function ownerVersion(apiVersion: string): { group: string; version: string } {
  const [first = '', second, ...more] = apiVersion.split('/');
  if (second === undefined) return { group: '', version: first };
  return more.length > 0 ? { group: '', version: '' } : { group: first, version: second };
}

/** objectmeta.go validateOwnerReference, for one reference. */
function validateOwnerReference(owner: JsonObject, wording: OwnerReferenceWording, style: ValueStyle): FieldError[] {
  const errors: FieldError[] = [];
  const apiVersion = stringAt(owner, 'apiVersion') ?? '';
  const kind = stringAt(owner, 'kind') ?? '';
  const { group, version } = ownerVersion(apiVersion);
  const field = 'metadata.ownerReferences';
  if (version === '')
    errors.push({
      type: 'Invalid',
      field: `${field}.apiVersion`,
      value: apiVersion,
      detail: 'version must not be empty',
    });
  for (const key of ['kind', 'name', 'uid']) {
    const value = stringAt(owner, key) ?? '';
    const detail = wording === 'named' ? `${key} must not be empty` : 'must not be empty';
    if (value === '') errors.push({ type: 'Invalid', field: `${field}.${key}`, value, detail });
  }
  // BannedOwners: core v1 Events may not own anything.
  if (group === '' && version === 'v1' && kind === 'Event') {
    errors.push({
      type: 'Invalid',
      field,
      value: { style, goType: 'OwnerReference', owner },
      detail: '/v1, Kind=Event is disallowed from being an owner',
    });
  }
  return errors;
}

/** objectmeta.go ValidateOwnerReferences: each reference's errors, and one more for each controller after the first. */
function validateOwnerReferences(meta: JsonObject, wording: OwnerReferenceWording, style: ValueStyle): FieldError[] {
  const owners = meta['ownerReferences'];
  if (!Array.isArray(owners)) return [];
  const errors: FieldError[] = [];
  let firstController = '';
  // One value for every such error: the Status renders it once (status.ts caches by the value object), where a
  // copy per error would cost the whole list for each extra controller (20,000 of them: 400 million entries).
  let whole: BadValue | undefined;
  const wholeList = (): BadValue => {
    whole ??= { style, goType: '[]OwnerReference', owners: owners.filter(isJsonObject) };
    return whole;
  };
  for (const owner of owners) {
    if (!isJsonObject(owner)) continue;
    errors.push(...validateOwnerReference(owner, wording, style));
    if (owner['controller'] !== true) continue;
    const current = `${stringAt(owner, 'kind') ?? ''}/${stringAt(owner, 'name') ?? ''}`;
    if (firstController === '') firstController = current;
    else
      errors.push({
        type: 'Invalid',
        field: 'metadata.ownerReferences',
        value: wholeList(),
        detail: `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`,
      });
  }
  return errors;
}

/** objectmeta.go ValidateFinalizers: each name at the list's path (no index), and never orphan with foregroundDeletion. */
function validateFinalizers(meta: JsonObject, style: ValueStyle): FieldError[] {
  const finalizers = meta['finalizers'];
  if (!Array.isArray(finalizers)) return [];
  const names = finalizers.filter((f): f is string => typeof f === 'string');
  const errors = names.flatMap((f) => invalidEach('metadata.finalizers', f, qualifiedNameErrors(f)));
  if (names.includes('orphan') && names.includes('foregroundDeletion')) {
    errors.push({
      type: 'Invalid',
      field: 'metadata.finalizers',
      value: { style, goType: '[]string', items: names },
      detail: 'finalizer orphan and foregroundDeletion cannot be both set',
    });
  }
  return errors;
}

const FIELD_MANAGER_MAX_BYTES = 128;
const SUBRESOURCE_MAX_BYTES = 256;
// unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space (no other space).
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
// One error per unprintable rune upstream; a 3 MiB manager name of control characters would be millions, so
// past this many the rest of the name is not checked (README, differences).
const MAX_RUNE_ERRORS = 100;

/** ValidateFieldManager: at most 128 bytes, and an Invalid per unprintable rune (%#U, at its byte offset). */
function validateFieldManager(manager: string, field: string): FieldError[] {
  const errors: FieldError[] = [];
  if (Buffer.byteLength(manager, 'utf8') > FIELD_MANAGER_MAX_BYTES)
    errors.push({ type: 'TooLong', field, detail: `may not be more than ${FIELD_MANAGER_MAX_BYTES} bytes` });
  let offset = 0;
  let found = 0;
  for (const rune of manager) {
    const code = rune.codePointAt(0) ?? 0;
    // A lone surrogate reached Go as U+FFFD, which is printable.
    const surrogate = code >= 0xd800 && code <= 0xdfff;
    if (!surrogate && !PRINTABLE.test(rune)) {
      const hex = code.toString(16).toUpperCase().padStart(4, '0');
      errors.push({
        type: 'Invalid',
        field,
        value: manager,
        detail: `invalid character U+${hex} (at position ${offset})`,
      });
      if (++found >= MAX_RUNE_ERRORS) break;
    }
    offset += surrogate ? 3 : Buffer.byteLength(rune, 'utf8');
  }
  return errors;
}

/**
 * meta/v1/validation ValidateManagedFields over the entries the field manager encoded (so operation and
 * fieldsType are already valid): each manager's name, and a subresource of at most 256 bytes.
 */
function validateManagedFields(meta: JsonObject): FieldError[] {
  const entries = meta['managedFields'];
  if (!Array.isArray(entries)) return [];
  return entries.flatMap((entry, i) => {
    if (!isJsonObject(entry)) return [];
    const field = `metadata.managedFields[${i}]`;
    const errors = validateFieldManager(stringAt(entry, 'manager') ?? '', `${field}.manager`);
    if (Buffer.byteLength(stringAt(entry, 'subresource') ?? '', 'utf8') > SUBRESOURCE_MAX_BYTES)
      errors.push({
        type: 'TooLong',
        field: `${field}.subresource`,
        detail: `may not be more than ${SUBRESOURCE_MAX_BYTES} bytes`,
      });
    return errors;
  });
}

/** ValidateNonnegativeField on metadata.generation (a create keeps the generation it was sent). */
function validateGeneration(meta: JsonObject): FieldError[] {
  const generation = numberAt(meta, 'generation');
  if (generation === undefined || generation >= 0) return [];
  return [
    { type: 'Invalid', field: 'metadata.generation', value: generation, detail: 'must be greater than or equal to 0' },
  ];
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
  // ValidateLeaseSpec hands fldPath.Child("strategy") to ValidateCoordinatedLeaseStrategy, which adds its own
  // Child("strategy"): upstream's path is spec.strategy.strategy.
  if (strategy !== undefined) errors.push(...validateStrategy(strategy, 'spec.strategy.strategy'));
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

/** ValidateObjectMeta for a namespaced object, in validateObjectMetaAccessorWithOptsCommon's order. */
export function validateObjectMeta(
  meta: JsonObject,
  rule: NameRule,
  wording: OwnerReferenceWording,
  style: ValueStyle,
): FieldError[] {
  return [
    ...validateName(meta, rule),
    ...validateNamespace(meta),
    ...validateGeneration(meta),
    ...validateLabels(meta),
    ...validateAnnotations(meta),
    ...validateOwnerReferences(meta, wording, style),
    ...validateFinalizers(meta, style),
    ...validateManagedFields(meta),
  ];
}

/**
 * The Lease validator of a release: all semantic errors of a Lease about to be stored (`old` the live one
 * on update); empty when valid. rest.BeforeUpdate's order: the object's metadata, the update's checks, the spec.
 */
export function leaseValidator(release: string): (lease: JsonObject, old: JsonObject | undefined) => FieldError[] {
  const wording = ownerReferenceWording(release);
  const style = valueStyleFor(release);
  return (lease, old) => [
    ...validateObjectMeta(objectAt(lease, 'metadata') ?? {}, dns1123SubdomainName, wording, style),
    ...validateUidUpdate(lease, old, style),
    ...validateLeaseSpec(objectAt(lease, 'spec') ?? {}),
  ];
}
