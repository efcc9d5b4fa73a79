// A body's kind and apiVersion against the URL's type, as kube-apiserver's decoding answers them: missing
// parts defaulted from the URL (runtime/serializer/json gvkWithDefaults), kinds the legacyscheme does not
// register ("no kind … is registered"), registered kinds of another type ("unknown conversion"), and another
// version of the same type refused by the handler (AcceptsGroupVersion: "does not match the expected API version").
import { describe, expect, it } from 'vitest';
import { type TargetType, checkBodyType } from '../../../templates/k8s-lease-api-server/src/operations/type-meta.js';

const LEASE: TargetType = {
  group: 'coordination.k8s.io',
  version: 'v1',
  kind: 'Lease',
  internalPackage: 'coordination',
};
const NAMESPACE: TargetType = { group: '', version: 'v1', kind: 'Namespace', internalPackage: 'core' };

function check(kind: unknown, apiVersion: unknown, target = LEASE): string {
  const result = checkBodyType(kind, apiVersion, target);
  return result.ok ? 'ok' : result.error;
}

describe('checkBodyType', () => {
  it.each<[unknown, unknown]>([
    ['Lease', 'coordination.k8s.io/v1'],
    [undefined, undefined],
    ['', ''],
    [undefined, 'coordination.k8s.io/v1'],
    ['Lease', undefined],
    ['Lease', 'coordination.k8s.io/'],
    [7, 7],
  ])('accepts kind %j apiVersion %j for a Lease', (kind, apiVersion) => {
    expect(check(kind, apiVersion)).toBe('ok');
  });

  it.each<[unknown, unknown, string]>([
    [
      'Pod',
      'v1',
      'Pod in version "v1" cannot be handled as a Lease: converting (v1.Pod) to (coordination.Lease): unknown conversion',
    ],
    [
      'Foo',
      'coordination.k8s.io/v1',
      'Foo in version "v1" cannot be handled as a Lease: no kind "Foo" is registered for version "coordination.k8s.io/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    ],
    [
      'Deployment',
      'apps/v1',
      'Deployment in version "v1" cannot be handled as a Lease: no kind "Deployment" is registered for version "apps/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    ],
    [
      'LeaseCandidate',
      'coordination.k8s.io/v1beta1',
      'LeaseCandidate in version "v1beta1" cannot be handled as a Lease: converting (v1beta1.LeaseCandidate) to (coordination.Lease): unknown conversion',
    ],
    [
      'Lease',
      'coordination.k8s.io/v1beta1',
      'the API version in the data (coordination.k8s.io/v1beta1) does not match the expected API version (coordination.k8s.io/v1)',
    ],
    [
      'Lease',
      'a/b/c',
      'the object provided is unrecognized (must be of type Lease): unexpected GroupVersion string: a/b/c',
    ],
  ])('refuses kind %j apiVersion %j for a Lease: %s', (kind, apiVersion, message) => {
    expect(check(kind, apiVersion)).toBe(message);
  });

  it('defaults a core type from the URL too', () => {
    expect(check(undefined, 'v1', NAMESPACE)).toBe('ok');
    expect(check('Lease', 'coordination.k8s.io/v1', NAMESPACE)).toBe(
      'Lease in version "v1" cannot be handled as a Namespace: converting (v1.Lease) to (core.Namespace): unknown conversion',
    );
  });
});
