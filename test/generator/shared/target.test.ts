import { describe, expect, it } from 'vitest';
import { LEASE_TARGET } from '../../../generator/config.js';
import { coversKind, coversVersion, openApiV3FileName } from '../../../generator/shared/target.js';

describe('the generation target', () => {
  it('names the per-group OpenAPI v3 document upstream publishes for its root version', () => {
    // kubernetes/kubernetes api/openapi-spec/v3/ names one file per group version this way.
    expect(openApiV3FileName(LEASE_TARGET)).toBe('apis__coordination.k8s.io__v1_openapi.json');
    expect(openApiV3FileName({ group: 'scheduling.k8s.io', rootVersion: 'v1' })).toBe(
      'apis__scheduling.k8s.io__v1_openapi.json',
    );
  });

  it('covers every version and kind unless it lists them; the root version always', () => {
    const narrow = { group: 'g', rootVersion: 'v1', versions: ['v1beta1'], kinds: ['Widget'] };
    expect([coversVersion(LEASE_TARGET, 'v1alpha2'), coversKind(LEASE_TARGET, 'LeaseCandidate')]).toEqual([true, true]);
    expect(['v1', 'v1beta1', 'v1alpha1'].map((v) => coversVersion(narrow, v))).toEqual([true, true, false]);
    expect(['Widget', 'Gadget', undefined].map((k) => coversKind(narrow, k))).toEqual([true, false, true]);
  });
});
