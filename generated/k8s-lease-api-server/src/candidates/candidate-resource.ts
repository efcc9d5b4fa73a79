// LeaseCandidate (coordination.k8s.io, 1.31+): which group versions a release serves, its field schema
// per version, and kube-apiserver's validation (pkg/apis/coordination/validation/validation.go,
// ValidateLeaseCandidate, ValidateLeaseCandidateSpec, ValidateLeaseCandidateSpecUpdate).
import type { JsonObject } from '../json.js';
import { objectAt, stringAt } from '../json.js';
import type { ResourceInfo } from '../lease-meta.js';
import { resourceInfo } from '../lease-meta.js';
import type { FieldSchema, ObjectSchema } from '../schema/field-schema.js';
import type { FieldError } from '../status.js';
import { validateObjectMeta, validateStrategy } from '../validation/validate-lease.js';
import { parseSemver } from './semver.js';

export const CANDIDATE_KIND = 'LeaseCandidate';
export const CANDIDATE_PLURAL = 'leasecandidates';
export const OLDEST_EMULATION_VERSION = 'OldestEmulationVersion';

export type CandidateVersion = 'v1alpha1' | 'v1alpha2' | 'v1beta1';

/**
 * Served group versions, preferred first, as the releases' OpenAPI documents list them: v1alpha1 in 1.31
 * (spec.preferredStrategies), v1alpha2 in 1.32 (spec.strategy), v1beta1 beside v1alpha2 from 1.33. None before 1.31.
 */
export function candidateVersions(release: string): CandidateVersion[] {
  const minor = Number(release.split('.')[1] ?? '0');
  if (minor < 31) return [];
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

function semverErrors(spec: JsonObject, field: 'binaryVersion' | 'emulationVersion'): FieldError[] {
  const value = stringAt(spec, field) ?? '';
  if (value === '') return [];
  const parsed = parseSemver(value);
  return parsed.ok ? [] : [{ type: 'Invalid', field: `spec.${field}`, value, detail: parsed.error }];
}

function versionOrderErrors(spec: JsonObject): FieldError[] {
  const binary = parseSemver(stringAt(spec, 'binaryVersion') ?? '');
  const emulation = parseSemver(stringAt(spec, 'emulationVersion') ?? '');
  if (!binary.ok || !emulation.ok || binary.value.compare(emulation.value) >= 0) return [];
  return [{ type: 'Invalid', field: 'spec.binaryVersion', value: stringAt(spec, 'binaryVersion') ?? '', detail: 'binary version must not be lower than emulation version' }];
}

/** v1alpha2/v1beta1 (1.32+): leaseName, binaryVersion and strategy are required. */
function validateSpec(spec: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  if ((stringAt(spec, 'leaseName') ?? '') === '') errors.push({ type: 'Required', field: 'spec.leaseName' });
  errors.push(...semverErrors(spec, 'emulationVersion'));
  if ((stringAt(spec, 'binaryVersion') ?? '') === '') errors.push({ type: 'Required', field: 'spec.binaryVersion' });
  else errors.push(...semverErrors(spec, 'binaryVersion'));
  errors.push(...versionOrderErrors(spec));
  const strategy = stringAt(spec, 'strategy') ?? '';
  if (strategy === '') {
    errors.push({ type: 'Required', field: 'spec.strategy' });
  } else {
    if (strategy === OLDEST_EMULATION_VERSION && (stringAt(spec, 'emulationVersion') ?? '') === '') {
      errors.push({ type: 'Required', field: 'spec.emulationVersion', detail: 'must be specified when strategy is "OldestEmulationVersion"' });
    }
    // kube-apiserver appends "strategy" to a path that already ends in it (spec.strategy.strategy); kept, as clients see it.
    errors.push(...validateStrategy(strategy, 'spec.strategy.strategy'));
  }
  return errors;
}

/** v1alpha1 (1.31): preferredStrategies instead of strategy; binaryVersion is required only with OldestEmulationVersion. */
function validateSpecV1alpha1(spec: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  if ((stringAt(spec, 'leaseName') ?? '') === '') errors.push({ type: 'Required', field: 'spec.leaseName' });
  errors.push(...semverErrors(spec, 'emulationVersion'), ...semverErrors(spec, 'binaryVersion'), ...versionOrderErrors(spec));
  const list = spec['preferredStrategies'];
  const strategies = Array.isArray(list) ? list.filter((s): s is string => typeof s === 'string') : [];
  if (strategies.length === 0) return [...errors, { type: 'Required', field: 'spec.preferredStrategies', detail: 'must have at least one strategy' }];
  const seen = new Set<string>();
  strategies.forEach((strategy, i) => {
    const field = `spec.preferredStrategies[${i}]`;
    if (seen.has(strategy)) errors.push({ type: 'Invalid', field, value: strategy, detail: 'Duplicate value' });
    seen.add(strategy);
    if (strategy === OLDEST_EMULATION_VERSION) {
      for (const key of ['binaryVersion', 'emulationVersion'] as const) {
        if ((stringAt(spec, key) ?? '') === '') errors.push({ type: 'Required', field: `spec.${key}`, detail: "must be specified when `strategy` is 'OldestEmulationVersion'" });
      }
    }
    errors.push(...validateStrategy(strategy, `${field}.strategy`));
  });
  return errors;
}

/** The validator for one served version; on update, spec.leaseName is immutable (ValidateLeaseCandidateSpecUpdate). */
export function candidateValidator(version: CandidateVersion): (next: JsonObject, old: JsonObject | undefined) => FieldError[] {
  const spec = hasStrategyList(version) ? validateSpecV1alpha1 : validateSpec;
  return (next, old) => {
    const nextSpec = objectAt(next, 'spec') ?? {};
    const errors = [...validateObjectMeta(objectAt(next, 'metadata') ?? {}), ...spec(nextSpec)];
    if (old !== undefined) {
      const before = stringAt(objectAt(old, 'spec'), 'leaseName') ?? '';
      const after = stringAt(nextSpec, 'leaseName') ?? '';
      if (before !== after) errors.push({ type: 'Invalid', field: 'spec.leaseName', value: after, detail: 'field is immutable' });
    }
    return errors;
  };
}
