import { describe, expect, it } from 'vitest';
import { diffReleases } from '../../../generator/diff/diff-releases.js';
import type { GroupVersionIr, ModelIr, OperationIr, ReleaseIr } from '../../../generator/ir/types.js';
import { leaseIr, releaseIr } from '../../helpers/project.js';

const lease = leaseIr('1.35.0');
/** A release serving only the Lease API, to compare edits of it. */
const only = (gv: GroupVersionIr): ReleaseIr => ({ release: gv.release, groupVersions: [gv] });
const base = only(lease);

function withModel(ir: GroupVersionIr, name: string, edit: (model: ModelIr) => ModelIr | undefined): ReleaseIr {
  return only({
    ...ir,
    release: 'next',
    models: ir.models.flatMap((m) => (m.name === name ? [edit(m)].filter((x): x is ModelIr => x !== undefined) : [m])),
  });
}

function withOperation(
  ir: GroupVersionIr,
  name: string,
  edit: (op: OperationIr) => OperationIr | undefined,
): ReleaseIr {
  return only({
    ...ir,
    release: 'next',
    operations: ir.operations.flatMap((o) =>
      o.name === name ? [edit(o)].filter((x): x is OperationIr => x !== undefined) : [o],
    ),
  });
}

function editFields(model: ModelIr, edit: (props: ModelIr['shape'] & { kind: 'object' }) => ModelIr['shape']): ModelIr {
  if (model.shape.kind !== 'object') throw new Error('not an object');
  return { ...model, shape: edit(model.shape) };
}

describe('API diff classification', () => {
  it('the same release has no changes', () => {
    expect(diffReleases(base, base).changes).toEqual([]);
  });

  it.each([
    [
      'optional field added → additive',
      withModel(lease, 'LeaseSpec', (m) =>
        editFields(m, (s) => ({
          ...s,
          properties: [
            ...s.properties,
            { name: 'fencingToken', type: { kind: 'integer' }, required: false, description: '' },
          ],
        })),
      ),
      { kind: 'field-added', class: 'additive', subject: 'LeaseSpec.fencingToken' },
    ],
    [
      'required field added → breaking',
      withModel(lease, 'LeaseSpec', (m) =>
        editFields(m, (s) => ({
          ...s,
          properties: [...s.properties, { name: 'epoch', type: { kind: 'integer' }, required: true, description: '' }],
        })),
      ),
      { kind: 'field-added', class: 'breaking', subject: 'LeaseSpec.epoch' },
    ],
    [
      'field removed → breaking',
      withModel(lease, 'LeaseSpec', (m) =>
        editFields(m, (s) => ({ ...s, properties: s.properties.filter((p) => p.name !== 'holderIdentity') })),
      ),
      { kind: 'field-removed', class: 'breaking', subject: 'LeaseSpec.holderIdentity' },
    ],
    [
      'field retyped → breaking',
      withModel(lease, 'LeaseSpec', (m) =>
        editFields(m, (s) => ({
          ...s,
          properties: s.properties.map((p) =>
            p.name === 'holderIdentity' ? { ...p, type: { kind: 'integer' as const } } : p,
          ),
        })),
      ),
      { kind: 'field-retyped', class: 'breaking', subject: 'LeaseSpec.holderIdentity' },
    ],
    [
      'field description changed → docs-only',
      withModel(lease, 'LeaseSpec', (m) =>
        editFields(m, (s) => ({
          ...s,
          properties: s.properties.map((p) => (p.name === 'holderIdentity' ? { ...p, description: 'new words' } : p)),
        })),
      ),
      { kind: 'description-changed', class: 'docs-only', subject: 'LeaseSpec.holderIdentity' },
    ],
    [
      'model removed → breaking',
      withModel(lease, 'Preconditions', () => undefined),
      { kind: 'model-removed', class: 'breaking', subject: 'Preconditions' },
    ],
    [
      'operation removed → breaking',
      withOperation(lease, 'deleteCollectionNamespacedLease', () => undefined),
      { kind: 'operation-removed', class: 'breaking', subject: 'deleteCollectionNamespacedLease' },
    ],
    [
      'optional query parameter added → additive',
      withOperation(lease, 'listNamespacedLease', (o) => ({
        ...o,
        queryParameters: [
          ...o.queryParameters,
          { name: 'shardSelector', in: 'query', type: { kind: 'string' }, required: false, description: '' },
        ],
      })),
      { kind: 'query-parameter-added', class: 'additive', subject: 'listNamespacedLease ?shardSelector' },
    ],
    [
      'query parameter retyped → breaking',
      withOperation(lease, 'listNamespacedLease', (o) => ({
        ...o,
        queryParameters: o.queryParameters.map((p) =>
          p.name === 'limit' ? { ...p, type: { kind: 'string' as const } } : p,
        ),
      })),
      { kind: 'query-parameter-retyped', class: 'breaking', subject: 'listNamespacedLease ?limit' },
    ],
    [
      'query parameter removed → breaking',
      withOperation(lease, 'listNamespacedLease', (o) => ({
        ...o,
        queryParameters: o.queryParameters.filter((p) => p.name !== 'limit'),
      })),
      { kind: 'query-parameter-removed', class: 'breaking', subject: 'listNamespacedLease ?limit' },
    ],
    [
      'response code removed → breaking',
      withOperation(lease, 'createNamespacedLease', (o) => ({
        ...o,
        responses: o.responses.filter((r) => r.code !== '202'),
      })),
      { kind: 'response-removed', class: 'breaking', subject: 'createNamespacedLease 202' },
    ],
    [
      'content type added → additive',
      withOperation(lease, 'readNamespacedLease', (o) => ({
        ...o,
        responses: o.responses.map((r) =>
          r.code === '200' ? { ...r, contentTypes: [...r.contentTypes, 'application/x-new'] } : r,
        ),
      })),
      { kind: 'content-types-changed', class: 'additive', subject: 'readNamespacedLease 200' },
    ],
  ] as const)('%s', (_name, next, expected) => {
    const diff = diffReleases(base, next);
    expect(diff.changes).toHaveLength(1);
    expect(diff.changes[0]).toMatchObject(expected);
  });

  it('counts classes apart', () => {
    const diff = diffReleases(releaseIr('1.30.0'), releaseIr('1.31.1'));
    expect(diff.counts).toEqual({ breaking: 0, additive: 3, docsOnly: 2 });
    expect(diff.changes.filter((c) => c.class === 'additive').map((c) => c.subject)).toEqual([
      'coordination.k8s.io/v1alpha1',
      'LeaseSpec.preferredHolder',
      'LeaseSpec.strategy',
    ]);
  });
});
