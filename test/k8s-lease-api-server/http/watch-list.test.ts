// The WatchList feature gate per release (k8s.io/apiserver/pkg/features/kube_features.go: beta and on in 1.32,
// off again in 1.33, on from 1.34) and the defaulting it turns on (apimachinery pkg/apis/meta/internalversion
// defaults.go SetListOptionsDefaults: a watch from "" or "0" that set neither sendInitialEvents nor
// resourceVersionMatch becomes sendInitialEvents=true, resourceVersionMatch=NotOlderThan).
import { describe, expect, it } from 'vitest';
import type { ListRequest } from '../../../templates/k8s-lease-api-server/src/http/request-options.js';
import { watchListEnabled, withListDefaults } from '../../../templates/k8s-lease-api-server/src/http/watch-list.js';

const WATCH: ListRequest = {
  namespace: 'default',
  labels: [],
  fields: [],
  limit: undefined,
  continueToken: undefined,
  resourceVersion: undefined,
  resourceVersionMatch: undefined,
  watch: true,
  allowWatchBookmarks: true,
  sendInitialEvents: undefined,
  timeoutSeconds: undefined,
};

describe('watchListEnabled', () => {
  it.each([
    ['1.31.1', false],
    ['1.32.0', true],
    ['v1.32.3', true],
    ['1.33.0', false],
    ['1.34.0', true],
    ['1.35.0', true],
    ['banana', false],
  ])('%s → %s', (release, enabled) => {
    expect(watchListEnabled(release)).toBe(enabled);
  });
});

describe('withListDefaults (SetListOptionsDefaults)', () => {
  it.each([undefined, '', '0'])('makes a watch from resourceVersion %j a watch-list request', (resourceVersion) => {
    expect(withListDefaults({ ...WATCH, resourceVersion }, true)).toEqual({
      ...WATCH,
      resourceVersion,
      sendInitialEvents: true,
      resourceVersionMatch: 'NotOlderThan',
    });
  });

  it.each<[string, ListRequest, boolean]>([
    ['with the gate off', WATCH, false],
    ['for a list', { ...WATCH, watch: false }, true],
    ['from a resourceVersion', { ...WATCH, resourceVersion: '12' }, true],
    ['when sendInitialEvents is set', { ...WATCH, sendInitialEvents: false }, true],
    ['when resourceVersionMatch is set', { ...WATCH, resourceVersionMatch: 'NotOlderThan' }, true],
  ])('changes nothing %s', (_what, request, enabled) => {
    expect(withListDefaults(request, enabled)).toBe(request);
  });
});
