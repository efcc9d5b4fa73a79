// The 409 of an apply conflict: apimachinery managedfields/internal/conflict.go NewConflictError and its
// conflict_test.go TestNewConflictError cases (the manager identifiers there carry a time, which
// BuildManagerIdentifier never puts in an identifier the server compares, so the cases here have none).
import { describe, expect, it } from 'vitest';
import { joinPath } from '../../../templates/k8s-lease-api-server/src/managed/field-set.js';
import { describeConflicts, printManager } from '../../../templates/k8s-lease-api-server/src/managed/conflict-error.js';

const path = (...elements: string[]): string => elements.reduce(joinPath, '');
const FOO_UPDATE = '{"manager":"foo","operation":"Update","apiVersion":"v1"}';
const BAR_APPLY = '{"manager":"bar","operation":"Apply"}';

describe('printManager', () => {
  it.each([
    [FOO_UPDATE, '"foo" using v1'],
    [BAR_APPLY, '"bar"'],
    [
      '{"manager":"foo","operation":"Update","subresource":"scale","apiVersion":"v1"}',
      '"foo" with subresource "scale" using v1',
    ],
    ['not json', '"not json"'],
  ])('%s → %s', (identifier, printed) => {
    expect(printManager(identifier)).toBe(printed);
  });
});

describe('describeConflicts (NewConflictError)', () => {
  it('words one conflict on one line', () => {
    expect(describeConflicts([{ manager: FOO_UPDATE, path: path('f:spec', 'f:replicas') }])).toEqual({
      message: 'Apply failed with 1 conflict: conflict with "foo" using v1: .spec.replicas',
      causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "foo" using v1', field: '.spec.replicas' }],
    });
  });

  it('groups several by manager, managers in sorted order, causes in conflict order', () => {
    const report = describeConflicts([
      { manager: FOO_UPDATE, path: path('f:spec', 'f:replicas') },
      { manager: BAR_APPLY, path: path('f:metadata', 'f:labels', 'f:app') },
    ]);
    expect(report.message).toBe(
      'Apply failed with 2 conflicts: conflicts with "bar":\n- .metadata.labels.app\nconflicts with "foo" using v1:\n- .spec.replicas',
    );
    expect(report.causes).toEqual([
      { reason: 'FieldManagerConflict', message: 'conflict with "foo" using v1', field: '.spec.replicas' },
      { reason: 'FieldManagerConflict', message: 'conflict with "bar"', field: '.metadata.labels.app' },
    ]);
  });
});
