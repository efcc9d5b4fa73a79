// LeaseCandidate as kube-apiserver serves it: the group versions per release (v1alpha1 in 1.31, v1alpha2 in 1.32,
// v1beta1 beside v1alpha2 from 1.33), ValidLeaseCandidateName = IsConfigMapKey (apimachinery validation_test.go
// TestIsConfigMapKey), and the spec validation of kubernetes pkg/apis/coordination/validation validation_test.go
// (TestValidateLeaseCandidateSpec of 1.31 for v1alpha1, TestValidateLeaseCandidateUpdate,
// TestValidateCoordinatedLeaseStrategy), with 1.32's required strategy for the later versions.
import { describe, expect, it } from 'vitest';
import {
  type CandidateVersion,
  candidateResource,
  candidateValidator,
  candidateVersions,
  configMapKeyErrors,
} from '../../../templates/k8s-lease-api-server/src/candidates/candidate-resource.js';
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';

const candidate = (spec: JsonObject): JsonObject => ({ metadata: { name: 'c', namespace: 'default' }, spec });

function fields(version: CandidateVersion, spec: JsonObject, old?: JsonObject): string[] {
  return candidateValidator(version, '1.36')(candidate(spec), old === undefined ? undefined : candidate(old)).map(
    (e) => e.field,
  );
}

describe('candidateVersions and candidateResource', () => {
  it.each<[string, CandidateVersion[]]>([
    ['1.30.0', []],
    ['1.31.1', ['v1alpha1']],
    ['1.32.0', ['v1alpha2']],
    ['1.33.0', ['v1beta1', 'v1alpha2']],
    ['1.35.0', ['v1beta1', 'v1alpha2']],
  ])('%s serves %j', (release, versions) => {
    expect(candidateVersions(release)).toEqual(versions);
  });

  it('names the resource leasecandidates of the coordination group', () => {
    expect(candidateResource('v1beta1')).toMatchObject({
      groupVersion: 'coordination.k8s.io/v1beta1',
      kind: 'LeaseCandidate',
      plural: 'leasecandidates',
      qualifiedResource: 'leasecandidates.coordination.k8s.io',
    });
  });
});

describe('configMapKeyErrors (IsConfigMapKey)', () => {
  it.each([
    'a',
    'good',
    'good-good',
    'still.good',
    'this.is.also.good',
    '.so.is.this',
    'THIS_IS_GOOD',
    'so_is_this_17',
  ])('accepts %j', (value) => {
    expect(configMapKeyErrors(value)).toEqual([]);
  });

  it.each([
    ['.', "must not be '.'"],
    ['..', "must not be '..'"],
    ['..bad', "must not start with '..'"],
    [
      'b*d',
      "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    ],
    [
      'bad!&bad',
      "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    ],
  ])('refuses %j: %s', (value, error) => {
    expect(configMapKeyErrors(value)).toEqual([error]);
  });
});

describe('candidateValidator v1alpha1 (TestValidateLeaseCandidateSpec, 1.31)', () => {
  it.each<[string, JsonObject]>([
    [
      'valid',
      {
        binaryVersion: '1.30.0',
        emulationVersion: '1.30.0',
        leaseName: 'test',
        preferredStrategies: ['OldestEmulationVersion'],
      },
    ],
    ['a custom strategy without versions', { leaseName: 'test', preferredStrategies: ['custom.com/foo'] }],
  ])('accepts %s', (_what, spec) => {
    expect(fields('v1alpha1', spec)).toEqual([]);
  });

  it.each<[string, JsonObject, string]>([
    ['no lease name', { emulationVersion: '1.30.0', preferredStrategies: ['custom.com/foo'] }, 'spec.leaseName'],
    [
      'a bad binaryVersion',
      { binaryVersion: '1.30.1.6', leaseName: 'test', preferredStrategies: ['custom.com/foo'] },
      'spec.binaryVersion',
    ],
    [
      'an emulation version above the binary version',
      {
        emulationVersion: '1.30.0',
        binaryVersion: '1.29.0',
        leaseName: 'test',
        preferredStrategies: ['custom.com/foo'],
      },
      'spec.binaryVersion',
    ],
    [
      'a bad strategy',
      { binaryVersion: '1.30.1', emulationVersion: '1.30.1', leaseName: 'test', preferredStrategies: ['foo'] },
      'spec.preferredStrategies[0].strategy',
    ],
    [
      'OldestEmulationVersion without an emulation version',
      { binaryVersion: '1.30.1', leaseName: 'test', preferredStrategies: ['OldestEmulationVersion'] },
      'spec.emulationVersion',
    ],
    ['no strategy', { leaseName: 'test' }, 'spec.preferredStrategies'],
  ])('refuses %s at %s', (_what, spec, field) => {
    expect(fields('v1alpha1', spec)).toContain(field);
  });
});

describe('candidateValidator v1alpha2 and v1beta1 (1.32+)', () => {
  const valid = {
    leaseName: 'test',
    binaryVersion: '1.32.0',
    emulationVersion: '1.31.0',
    strategy: 'OldestEmulationVersion',
  };

  it('accepts a complete spec and a custom strategy of the form example.com/foobar', () => {
    expect(fields('v1beta1', valid)).toEqual([]);
    expect(fields('v1alpha2', { leaseName: 'test', binaryVersion: '1.32.0', strategy: 'example.com/foobar' })).toEqual(
      [],
    );
  });

  it('requires leaseName, binaryVersion and strategy', () => {
    expect(fields('v1beta1', {})).toEqual(['spec.leaseName', 'spec.binaryVersion', 'spec.strategy']);
  });

  it.each(['foobar', 'example.com/foobar/toomanyslashes'])('refuses the strategy %j', (strategy) => {
    expect(fields('v1beta1', { ...valid, strategy })).toEqual(['spec.strategy.strategy']);
  });

  it('keeps leaseName immutable (TestValidateLeaseCandidateUpdate)', () => {
    expect(fields('v1beta1', valid, valid)).toEqual([]);
    expect(
      candidateValidator('v1beta1', '1.36')(candidate({ ...valid, leaseName: 'test-update' }), candidate(valid)),
    ).toEqual([{ type: 'Invalid', field: 'spec.leaseName', value: 'test-update', detail: 'field is immutable' }]);
  });
});
