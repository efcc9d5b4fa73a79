// The Namespaces this server keeps, as kube-apiserver creates them: the system namespaces at start, the
// kubernetes.io/metadata.name label on each (NamespaceDefaultLabelName), spec.finalizers ["kubernetes"] and
// status.phase Active (namespace strategy PrepareForCreate), ValidateNamespace's name, label and annotation
// errors, NewNotFound / NewAlreadyExists on the core group's "namespaces", and a dry run stored nowhere.
import { describe, expect, it } from 'vitest';
import { type JsonObject, objectAt, stringAt } from '../../../templates/k8s-lease-api-server/src/json.js';
import {
  NamespaceRegistry,
  namespaceAlreadyExists,
  namespaceNotFound,
} from '../../../templates/k8s-lease-api-server/src/namespaces/namespace-registry.js';

const NOW = Date.parse('2026-02-03T04:05:06.789Z');
const nameOf = (ns: JsonObject): string | undefined => stringAt(objectAt(ns, 'metadata'), 'name');

describe('NamespaceRegistry', () => {
  it('starts with the system namespaces and the declared ones, listed by name', () => {
    const registry = new NamespaceRegistry(() => NOW, ['team', 'default']);
    expect(registry.list().map(nameOf)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system', 'team']);
    expect(registry.resourceVersion).toBe('5');
  });

  it('creates a Namespace as kube-apiserver fills it in', () => {
    const registry = new NamespaceRegistry(() => NOW, []);
    const created = registry.create({ metadata: { name: 'x', labels: { a: 'b' }, annotations: { n: 'v' } } }, false);
    expect(created.ok && created.value).toMatchObject({
      kind: 'Namespace',
      apiVersion: 'v1',
      metadata: {
        name: 'x',
        resourceVersion: '5',
        creationTimestamp: '2026-02-03T04:05:06Z',
        labels: { a: 'b', 'kubernetes.io/metadata.name': 'x' },
        annotations: { n: 'v' },
      },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
    expect(registry.has('x')).toBe(true);
    expect(registry.create({ metadata: { name: 'x' } }, false)).toEqual({
      ok: false,
      error: namespaceAlreadyExists('x'),
    });
  });

  it('generates a name from generateName, and stores nothing on a dry run', () => {
    const registry = new NamespaceRegistry(() => NOW, []);
    const generated = registry.create({ metadata: { generateName: 'tmp-' } }, true);
    const meta = generated.ok ? objectAt(generated.value, 'metadata') : undefined;
    const name = stringAt(meta, 'name') ?? '';
    expect(name).toMatch(/^tmp-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(meta).not.toHaveProperty('resourceVersion');
    expect(registry.has(name)).toBe(false);
    expect(registry.resourceVersion).toBe('4');
  });

  it('refuses invalid names, labels and annotations with one 422 listing every error', () => {
    const registry = new NamespaceRegistry(() => NOW, []);
    const bad = registry.create({ metadata: { name: 'Bad_Name', labels: { 'a/b/c': 'v', ok: '-x' } } }, false);
    expect(bad.ok ? undefined : bad.error.code).toBe(422);
    expect(bad.ok ? [] : bad.error.details?.causes?.map((c) => c.field)).toEqual([
      'metadata.name',
      'metadata.labels',
      'metadata.labels',
    ]);
    expect(bad.ok ? '' : bad.error.message).toMatch(
      /^Namespace "Bad_Name" is invalid: \[metadata\.name: Invalid value: "Bad_Name": /,
    );
    const unnamed = registry.create({ metadata: {} }, false);
    expect(unnamed.ok ? '' : unnamed.error.message).toBe(
      'Namespace "" is invalid: metadata.name: Required value: name or generateName is required',
    );
  });
});

describe('NamespaceRegistry deletion (storage.go REST.Delete, FinalizeREST.Update)', () => {
  const del = { dryRun: false, preconditions: {} };

  it('marks on the first DELETE, answers the same on the next, and deletes once finalized', () => {
    const registry = new NamespaceRegistry(() => NOW, ['team']);
    const events: string[] = [];
    registry.store.subscribe((e) => events.push(e.type));
    const first = registry.delete('team', del);
    expect(first.ok && first.value.deleted).toBe(false);
    expect(registry.isTerminating('team')).toBe(true);
    const second = registry.delete('team', del);
    expect(second.ok && second.value.object).toEqual(registry.get('team'));
    expect(events).toEqual(['MODIFIED']);
    // Store.Create on an object with a deletionTimestamp.
    const again = registry.create({ metadata: { name: 'team' } }, false);
    expect(again.ok ? '' : again.error.message).toBe('object is being deleted: namespaces "team" already exists');
    const finalized = registry.finalize('team', [], false);
    expect(finalized.ok && finalized.value.deleted).toBe(true);
    expect(registry.has('team')).toBe(false);
    expect(events).toEqual(['MODIFIED', 'DELETED']);
    expect(registry.delete('team', del)).toEqual({ ok: false, error: namespaceNotFound('team') });
  });

  it('a DELETE of a finalized namespace deletes it unless metadata finalizers keep it', () => {
    const registry = new NamespaceRegistry(() => NOW, ['a', 'b']);
    registry.delete('a', del);
    registry.finalize('a', ['example.com/x'], false);
    registry.delete('b', { ...del, propagationPolicy: 'Orphan' });
    registry.finalize('b', [], false);
    expect(registry.has('b')).toBe(true);
    expect(registry.delete('b', del)).toMatchObject({ ok: true, value: { deleted: false } });
    registry.releaseMetadataFinalizers('b', ['orphan']);
    expect(registry.has('b')).toBe(false);
    registry.finalize('a', [], false);
    expect(registry.has('a')).toBe(false);
  });

  it('finalizes an active namespace without deleting it, and stores nothing on a dry run', () => {
    const registry = new NamespaceRegistry(() => NOW, ['team']);
    const rv = registry.resourceVersion;
    expect(registry.finalize('team', [], true)).toMatchObject({ ok: true, value: { deleted: false } });
    expect(registry.resourceVersion).toBe(rv);
    expect(registry.delete('team', { ...del, dryRun: true })).toMatchObject({ ok: true, value: { deleted: false } });
    expect(registry.isTerminating('team')).toBe(false);
    registry.finalize('team', [], false);
    expect(registry.get('team')?.['spec']).toEqual({});
    expect(registry.has('team')).toBe(true);
  });
});

describe('namespace Status errors', () => {
  it('name the core resource without a group', () => {
    expect(namespaceNotFound('gone')).toEqual({
      code: 404,
      reason: 'NotFound',
      message: 'namespaces "gone" not found',
      details: { name: 'gone', kind: 'namespaces' },
    });
    expect(namespaceAlreadyExists('x').message).toBe('namespaces "x" already exists');
  });
});
