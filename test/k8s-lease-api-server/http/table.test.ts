// meta.k8s.io Tables as the real server prints them: kubernetes pkg/printers/internalversion's column definitions
// (leaseColumnDefinitions Name/Holder/Age, leaseCandidateColumnDefinitions, namespaceColumnDefinitions) and
// printLease / printLeaseCandidate / printNamespace cells (translateTimestampSince: "<unknown>" without a
// creationTimestamp), each row's object per includeObject (None, Metadata → PartialObjectMetadata, Object), the
// initial-events-end bookmark keeping its metadata, and TableOptions.NoHeaders leaving columnDefinitions null.
import { describe, expect, it } from 'vitest';
import { type JsonObject, isJsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';
import { resourceInfo } from '../../../templates/k8s-lease-api-server/src/lease-meta.js';
import {
  INITIAL_EVENTS_END_ANNOTATION,
  leaseRow,
  leaseTable,
} from '../../../templates/k8s-lease-api-server/src/http/table.js';

const NOW = Date.parse('2026-01-01T01:00:00Z');
const LEASE: JsonObject = {
  metadata: { name: 'a', namespace: 'default', creationTimestamp: '2026-01-01T00:55:00Z' },
  spec: { holderIdentity: 'h' },
};

describe('leaseRow', () => {
  it('prints name, holder and age, with the row object includeObject asks for', () => {
    expect(leaseRow(LEASE, NOW, 'None', 'v1')).toEqual({ cells: ['a', 'h', '5m'] });
    expect(leaseRow(LEASE, NOW, 'Metadata', 'v1')).toEqual({
      cells: ['a', 'h', '5m'],
      object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: LEASE['metadata'] },
    });
    expect(leaseRow(LEASE, NOW, 'Object', 'v1beta1')['object']).toEqual({
      kind: 'Lease',
      apiVersion: 'coordination.k8s.io/v1',
      ...LEASE,
    });
  });

  it('prints an empty holder and an unknown age', () => {
    expect(leaseRow({ metadata: { name: 'b' }, spec: {} }, NOW, 'None', 'v1')).toEqual({
      cells: ['b', '', '<unknown>'],
    });
  });

  it('keeps the metadata of the initial-events-end bookmark whatever includeObject says', () => {
    const bookmark: JsonObject = { metadata: { annotations: { [INITIAL_EVENTS_END_ANNOTATION]: 'true' } } };
    for (const include of ['None', 'Object'] as const) {
      expect(leaseRow(bookmark, NOW, include, 'v1')['object']).toEqual({
        kind: 'PartialObjectMetadata',
        apiVersion: 'meta.k8s.io/v1',
        metadata: bookmark['metadata'],
      });
    }
  });

  it('prints a LeaseCandidate with its lease name and versions', () => {
    const candidates = resourceInfo('v1beta1', 'LeaseCandidate', 'leasecandidates');
    const candidate: JsonObject = {
      metadata: { name: 'c', creationTimestamp: '2026-01-01T00:00:00Z' },
      spec: { leaseName: 'l', binaryVersion: '1.33.0', emulationVersion: '1.32.0' },
    };
    expect(leaseRow(candidate, NOW, 'None', 'v1', candidates)).toEqual({
      cells: ['c', 'l', '1.33.0', '1.32.0', '60m'],
    });
  });
});

describe('leaseTable', () => {
  it('names the columns of the printer and writes only the list metadata that is set', () => {
    const table = leaseTable([LEASE], { resourceVersion: '12', continueToken: 'tok' }, NOW, 'None', 'v1');
    expect(table['kind']).toBe('Table');
    expect(table['apiVersion']).toBe('meta.k8s.io/v1');
    expect(table['metadata']).toEqual({ resourceVersion: '12', continue: 'tok' });
    const columns = table['columnDefinitions'];
    expect(Array.isArray(columns) && columns.map((c) => (isJsonObject(c) ? c['name'] : undefined))).toEqual([
      'Name',
      'Holder',
      'Age',
    ]);
    expect(table['rows']).toEqual([{ cells: ['a', 'h', '5m'] }]);
  });

  it('leaves column definitions null without headers, and namespaces print their phase', () => {
    const namespaces = resourceInfo('v1', 'Namespace', 'namespaces');
    const ns: JsonObject = { metadata: { name: 'team' }, status: { phase: 'Active' } };
    const table = leaseTable([ns], { resourceVersion: '', noHeaders: true }, NOW, 'None', 'v1', namespaces);
    expect(table['metadata']).toEqual({});
    expect(table['columnDefinitions']).toBeNull();
    expect(table['rows']).toEqual([{ cells: ['team', 'Active', '<unknown>'] }]);
  });
});
