// LeaseCandidate (coordination.k8s.io, 1.31+): which group versions a release serves, its field schema
// per version, and kube-apiserver's validation (pkg/apis/coordination/validation/validation.go:
// ValidLeaseCandidateName, ValidateLeaseCandidateSpec as of 1.31 and of 1.32+, ValidateLeaseCandidateSpecUpdate).
import type { JsonObject } from '../json.js';
import { objectAt, stringAt } from '../json.js';
import type { ResourceInfo } from '../lease-meta.js';
import { resourceInfo } from '../lease-meta.js';
import type { FieldSchema, ObjectSchema } from '../schema/field-schema.js';
import { valueStyleFor } from '../field-value.js';
import type { FieldError } from '../status.js';
import { ownerReferenceWording, validateObjectMeta, validateStrategy } from '../validation/validate-lease.js';
import { validateUidUpdate } from '../validation/object-meta-update.js';
import { releaseMinor } from '../release.js';
import type { Semver } from './semver.js';
import { parseSemver, ZERO_VERSION } from './semver.js';

export const CANDIDATE_KIND = 'LeaseCandidate';
export const CANDIDATE_PLURAL = 'leasecandidates';
export const OLDEST_EMULATION_VERSION = 'OldestEmulationVersion';

export type CandidateVersion = 'v1alpha1' | 'v1alpha2' | 'v1beta1';

/**
 * Served group versions, preferred first, as the releases' OpenAPI documents list them: v1alpha1 in 1.31
 * (spec.preferredStrategies), v1alpha2 in 1.32 (spec.strategy), v1beta1 beside v1alpha2 from 1.33. None before 1.31.
 */
export function candidateVersions(release: string): CandidateVersion[] {
  const minor = releaseMinor(release);
  if (!(minor >= 31)) return []; // NaN, not a 1.x release, serves none either
  if (minor === 31) return ['v1alpha1'];
  if (minor === 32) return ['v1alpha2'];
  return ['v1beta1', 'v1alpha2'];
}

export function candidateResource(version: CandidateVersion): ResourceInfo {
  return resourceInfo(version, CANDIDATE_KIND, CANDIDATE_PLURAL);
}

/** v1alpha1 still had the ordered list of strategies that v1alpha2 replaced by one `strategy`. */
export function hasStrategyList(version: CandidateVersion): boolean {
  return version === 'v1alpha1';
}

const STRING: FieldSchema = { type: 'string' };
const MICRO_TIME: FieldSchema = { type: 'microTime' };

/** LeaseCandidate's fields; apiVersion, kind and metadata are the Lease's (the same ObjectMeta). */
export function candidateSchema(leaseSchema: ObjectSchema, version: CandidateVersion): ObjectSchema {
  const spec = new Map<string, FieldSchema>([
    ['leaseName', STRING],
    ['pingTime', MICRO_TIME],
    ['renewTime', MICRO_TIME],
    ['binaryVersion', STRING],
    ['emulationVersion', STRING],
  ]);
  if (hasStrategyList(version)) spec.set('preferredStrategies', { type: 'array', items: STRING });
  else spec.set('strategy', STRING);
  const fields = new Map<string, FieldSchema>();
  for (const key of ['apiVersion', 'kind', 'metadata']) fields.set(key, leaseSchema.fields.get(key) ?? { type: 'any' });
  fields.set('spec', { type: 'object', goName: 'LeaseCandidateSpec', fields: spec });
  return { type: 'object', goName: CANDIDATE_KIND, fields };
}

/** ValidLeaseCandidateName is IsConfigMapKey (k8s.io/apimachinery/pkg/util/validation), prefix or not. */
export function configMapKeyErrors(value: string): string[] {
  const errors: string[] = [];
  if (Buffer.byteLength(value, 'utf8') > 253) errors.push('must be no more than 253 characters');
  if (!/^[-._a-zA-Z0-9]+$/.test(value)) {
    errors.push(
      "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    );
  }
  if (value === '.') errors.push("must not be '.'");
  else if (value === '..') errors.push("must not be '..'");
  else if (value.startsWith('..')) errors.push("must not start with '..'");
  return errors;
}

const VALID_SEMVER = 'must be a valid semantic version';
const OEV_REQUIRES = "must be specified when `strategy` is 'OldestEmulationVersion'";

/** The parsed version, or the field error of one that does not parse (semver.Parse, strict); empty or invalid is semver.Version{}. */
function versionField(
  spec: JsonObject,
  field: 'binaryVersion' | 'emulationVersion',
): { errors: FieldError[]; version: Semver } {
  const value = stringAt(spec, field) ?? '';
  if (value === '') return { errors: [], version: ZERO_VERSION };
  const parsed = parseSemver(value);
  return parsed.ok
    ? { errors: [], version: parsed.value }
    : { errors: [{ type: 'Invalid', field: `spec.${field}`, value, detail: VALID_SEMVER }], version: ZERO_VERSION };
}

/** bv.LT(ev), both given: an invalid version takes part as 0.0.0, as kube-apiserver's. */
function orderErrors(spec: JsonObject, binary: Semver, emulation: Semver): FieldError[] {
  const binaryText = stringAt(spec, 'binaryVersion') ?? '';
  if (binaryText === '' || (stringAt(spec, 'emulationVersion') ?? '') === '') return [];
  return binary.compare(emulation) < 0
    ? [
        {
          type: 'Invalid',
          field: 'spec.binaryVersion',
          value: binaryText,
          detail: 'must be greater than or equal to `emulationVersion`',
        },
      ]
    : [];
}

/** v.EQ(semver.Version{}): Compare, so a pre-release of 0.0.0 is not zero. */
function isZero(v: Semver): boolean {
  return v.compare(ZERO_VERSION) === 0;
}

/** ValidateLeaseCandidateSpec of 1.32+ (v1alpha2, v1beta1): leaseName, binaryVersion and strategy are required. */
function validateSpec(spec: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  if ((stringAt(spec, 'leaseName') ?? '') === '') errors.push({ type: 'Required', field: 'spec.leaseName' });
  const emulation = versionField(spec, 'emulationVersion');
  errors.push(...emulation.errors);
  const binary = versionField(spec, 'binaryVersion');
  if ((stringAt(spec, 'binaryVersion') ?? '') === '') errors.push({ type: 'Required', field: 'spec.binaryVersion' });
  errors.push(...binary.errors, ...orderErrors(spec, binary.version, emulation.version));
  const strategy = stringAt(spec, 'strategy') ?? '';
  if (strategy === '') {
    errors.push({ type: 'Required', field: 'spec.strategy' });
  } else {
    if (strategy === OLDEST_EMULATION_VERSION && isZero(emulation.version))
      errors.push({ type: 'Required', field: 'spec.emulationVersion', detail: OEV_REQUIRES });
    // ValidateCoordinatedLeaseStrategy appends "strategy" to a path that already ends in it: spec.strategy.strategy.
    errors.push(...validateStrategy(strategy, 'spec.strategy.strategy'));
  }
  return errors;
}

/** ValidateLeaseCandidateSpec of 1.31 (v1alpha1): preferredStrategies instead of strategy; binaryVersion only with OldestEmulationVersion. */
function validateSpecV1alpha1(spec: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  if ((stringAt(spec, 'leaseName') ?? '') === '') errors.push({ type: 'Required', field: 'spec.leaseName' });
  const emulation = versionField(spec, 'emulationVersion');
  const binary = versionField(spec, 'binaryVersion');
  errors.push(...emulation.errors, ...binary.errors, ...orderErrors(spec, binary.version, emulation.version));
  const list = spec['preferredStrategies'];
  const strategies = Array.isArray(list) ? list.filter((s): s is string => typeof s === 'string') : [];
  if (strategies.length === 0)
    return [
      ...errors,
      { type: 'Required', field: 'spec.preferredStrategies', detail: 'must contain at least one strategy' },
    ];
  strategies.forEach((strategy, i) => {
    if (strategy === OLDEST_EMULATION_VERSION) {
      if (isZero(binary.version)) errors.push({ type: 'Required', field: 'spec.binaryVersion', detail: OEV_REQUIRES });
      if (isZero(emulation.version))
        errors.push({ type: 'Required', field: 'spec.emulationVersion', detail: OEV_REQUIRES });
    }
    errors.push(...validateStrategy(strategy, `spec.preferredStrategies[${i}].strategy`));
  });
  return errors;
}

/** The validator for one served version; on update, spec.leaseName is immutable (ValidateLeaseCandidateSpecUpdate). */
export function candidateValidator(
  version: CandidateVersion,
  release: string,
): (next: JsonObject, old: JsonObject | undefined) => FieldError[] {
  const spec = hasStrategyList(version) ? validateSpecV1alpha1 : validateSpec;
  const wording = ownerReferenceWording(release);
  const style = valueStyleFor(release);
  return (next, old) => {
    const nextSpec = objectAt(next, 'spec') ?? {};
    const meta = objectAt(next, 'metadata') ?? {};
    const errors = [
      ...validateObjectMeta(meta, configMapKeyErrors, wording, style),
      ...validateUidUpdate(next, old, style),
      ...spec(nextSpec),
    ];
    if (old !== undefined) {
      const before = stringAt(objectAt(old, 'spec'), 'leaseName') ?? '';
      const after = stringAt(nextSpec, 'leaseName') ?? '';
      if (before !== after)
        errors.push({ type: 'Invalid', field: 'spec.leaseName', value: after, detail: 'field is immutable' });
    }
    return errors;
  };
}
