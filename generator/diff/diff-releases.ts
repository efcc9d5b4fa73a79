import { describeType } from '../ir/type-description.js';
import type {
  GroupVersionIr,
  ModelIr,
  OperationIr,
  ParameterIr,
  PropertyIr,
  ReleaseIr,
  ResponseIr,
  TypeRef,
} from '../ir/types.js';
import { groupVersionNamespace } from '../shared/group-version.js';
import type { ApiChange, ChangeClass, ChangeKind, ReleaseDiff } from './types.js';

/**
 * The API diff between two releases, computed from their IRs. Every change
 * is classified from the point of view of a consumer written against the
 * older release: removals, retypings and required-ness changes are breaking;
 * optional additions are additive; description-only changes are docs-only
 * and counted apart.
 */
export function diffReleases(from: ReleaseIr, to: ReleaseIr): ReleaseDiff {
  const changes: ApiChange[] = diffGroupVersions(from, to);
  const count = (c: ChangeClass): number => changes.filter((x) => x.class === c).length;
  return {
    from: from.release,
    to: to.release,
    changes,
    counts: { breaking: count('breaking'), additive: count('additive'), docsOnly: count('docs-only') },
  };
}

const gvKey = (gv: GroupVersionIr): string => `${gv.group}/${gv.version}`;

/**
 * Group versions compare as wholes when one side lacks them (a served version appearing is additive, one
 * disappearing breaks every user of it), and element by element otherwise.
 */
function diffGroupVersions(from: ReleaseIr, to: ReleaseIr): ApiChange[] {
  const before = byKey(from.groupVersions, gvKey);
  const after = byKey(to.groupVersions, gvKey);
  const changes: ApiChange[] = [];
  for (const [key, gv] of after)
    if (!before.has(key)) changes.push(change('group-version-added', 'additive', key, servedSummary(gv)));
  for (const [key, gv] of before)
    if (!after.has(key)) changes.push(change('group-version-removed', 'breaking', key, servedSummary(gv)));
  for (const [key, old] of before) {
    const now = after.get(key);
    if (now === undefined) continue;
    const namespace = groupVersionNamespace(old);
    const qualify = (c: ApiChange): ApiChange =>
      namespace === undefined ? c : { ...c, subject: `${namespace}.${c.subject}` };
    changes.push(...[...diffOperations(old, now), ...diffModels(old, now)].map(qualify));
  }
  return changes;
}

/** What a group version serves, for its added/removed entry: its kinds (the models its list operations list) and how many operations. */
function servedSummary(gv: GroupVersionIr): string {
  const kinds = new Set<string>();
  for (const op of gv.operations) {
    const listed = op.kind === 'list' ? op.responses.find((r) => r.code === '200')?.type : undefined;
    if (listed?.kind === 'model' && listed.name.endsWith('List')) kinds.add(listed.name.slice(0, -'List'.length));
  }
  return `${[...kinds].sort().join(', ') || 'no kinds'} (${gv.operations.length} operations)`;
}

function change(kind: ChangeKind, cls: ChangeClass, subject: string, detail: string): ApiChange {
  return { class: cls, kind, subject, detail };
}

function byKey<T>(items: readonly T[], key: (item: T) => string): Map<string, T> {
  return new Map(items.map((item) => [key(item), item]));
}

/**
 * Types compare by the IR's description, not their TypeScript text: a format change (int32 → int64) keeps
 * the TypeScript type but changes what travels on the wire, so it is a retyping like any other — and
 * breaking, in either direction: a wider format brings values the old range excluded (an int64 past 2^53
 * loses precision in a JavaScript number), a narrower one rejects values writers sent before.
 */
function typeName(type: TypeRef | undefined): string {
  return type === undefined ? 'no body' : describeType(type);
}

function diffOperations(from: GroupVersionIr, to: GroupVersionIr): ApiChange[] {
  const changes: ApiChange[] = [];
  const before = byKey(from.operations, (o) => o.name);
  const after = byKey(to.operations, (o) => o.name);
  for (const [name, op] of after)
    if (!before.has(name)) changes.push(change('operation-added', 'additive', name, `${op.method} ${op.path}`));
  for (const [name, op] of before)
    if (!after.has(name)) changes.push(change('operation-removed', 'breaking', name, `${op.method} ${op.path}`));
  for (const [name, old] of before) {
    const now = after.get(name);
    if (now === undefined) continue;
    if (old.method !== now.method || old.path !== now.path)
      changes.push(
        change('operation-changed', 'breaking', name, `${old.method} ${old.path} → ${now.method} ${now.path}`),
      );
    if (old.description !== now.description)
      changes.push(change('description-changed', 'docs-only', name, 'operation description'));
    changes.push(...diffParameters(name, old.queryParameters, now.queryParameters));
    changes.push(...diffRequestBody(name, old, now));
    changes.push(...diffResponses(name, old.responses, now.responses));
  }
  return changes;
}

function diffParameters(operation: string, old: readonly ParameterIr[], now: readonly ParameterIr[]): ApiChange[] {
  const changes: ApiChange[] = [];
  const before = byKey(old, (p) => p.name);
  const after = byKey(now, (p) => p.name);
  const subject = (name: string): string => `${operation} ?${name}`;
  for (const [name, p] of after) {
    if (!before.has(name))
      changes.push(
        change(
          'query-parameter-added',
          p.required ? 'breaking' : 'additive',
          subject(name),
          `${typeName(p.type)}${p.required ? ', required' : ''}`,
        ),
      );
  }
  for (const [name, p] of before) {
    const q = after.get(name);
    if (q === undefined) {
      changes.push(change('query-parameter-removed', 'breaking', subject(name), typeName(p.type)));
      continue;
    }
    if (typeName(p.type) !== typeName(q.type))
      changes.push(
        change('query-parameter-retyped', 'breaking', subject(name), `${typeName(p.type)} → ${typeName(q.type)}`),
      );
    if (p.required !== q.required)
      changes.push(
        change(
          'query-parameter-required-changed',
          q.required ? 'breaking' : 'additive',
          subject(name),
          q.required ? 'now required' : 'now optional',
        ),
      );
    if (p.description !== q.description)
      changes.push(change('description-changed', 'docs-only', subject(name), 'parameter description'));
  }
  return changes;
}

function diffRequestBody(operation: string, old: OperationIr, now: OperationIr): ApiChange[] {
  const a = old.requestBody;
  const b = now.requestBody;
  if (a === undefined && b === undefined) return [];
  if (a === undefined || b === undefined || typeName(a.type) !== typeName(b.type) || (!a.required && b.required)) {
    return [
      change(
        'request-body-changed',
        'breaking',
        operation,
        `${a === undefined ? 'none' : typeName(a.type)} → ${b === undefined ? 'none' : typeName(b.type)}`,
      ),
    ];
  }
  return diffContentTypes(`${operation} request body`, a.contentTypes, b.contentTypes);
}

function diffContentTypes(subject: string, old: readonly string[], now: readonly string[]): ApiChange[] {
  const added = now.filter((c) => !old.includes(c));
  const removed = old.filter((c) => !now.includes(c));
  const changes: ApiChange[] = [];
  if (added.length > 0) changes.push(change('content-types-changed', 'additive', subject, `added ${added.join(', ')}`));
  if (removed.length > 0)
    changes.push(change('content-types-changed', 'breaking', subject, `removed ${removed.join(', ')}`));
  return changes;
}

function diffResponses(operation: string, old: readonly ResponseIr[], now: readonly ResponseIr[]): ApiChange[] {
  const changes: ApiChange[] = [];
  const before = byKey(old, (r) => r.code);
  const after = byKey(now, (r) => r.code);
  for (const [code, r] of after)
    if (!before.has(code)) changes.push(change('response-added', 'additive', `${operation} ${code}`, typeName(r.type)));
  for (const [code, r] of before) {
    const s = after.get(code);
    if (s === undefined) {
      changes.push(change('response-removed', 'breaking', `${operation} ${code}`, typeName(r.type)));
      continue;
    }
    if (typeName(r.type) !== typeName(s.type))
      changes.push(
        change('response-retyped', 'breaking', `${operation} ${code}`, `${typeName(r.type)} → ${typeName(s.type)}`),
      );
    changes.push(...diffContentTypes(`${operation} ${code}`, r.contentTypes, s.contentTypes));
    if (r.description !== s.description)
      changes.push(change('description-changed', 'docs-only', `${operation} ${code}`, 'response description'));
  }
  return changes;
}

function diffModels(from: GroupVersionIr, to: GroupVersionIr): ApiChange[] {
  const changes: ApiChange[] = [];
  const before = byKey(from.models, (m) => m.name);
  const after = byKey(to.models, (m) => m.name);
  for (const [name, m] of after)
    if (!before.has(name)) changes.push(change('model-added', 'additive', name, m.schemaName));
  for (const [name, m] of before)
    if (!after.has(name)) changes.push(change('model-removed', 'breaking', name, m.schemaName));
  for (const [name, old] of before) {
    const now = after.get(name);
    if (now !== undefined) changes.push(...diffModel(old, now));
  }
  return changes;
}

function shapeName(model: ModelIr): string {
  switch (model.shape.kind) {
    case 'object':
      return 'object';
    case 'timestamp':
      return `timestamp (${model.shape.precision})`;
    case 'alias':
      return describeType(model.shape.type);
  }
}

function diffModel(old: ModelIr, now: ModelIr): ApiChange[] {
  const changes: ApiChange[] = [];
  if (old.description !== now.description)
    changes.push(change('description-changed', 'docs-only', old.name, 'model description'));
  if (shapeName(old) !== shapeName(now))
    return [...changes, change('model-retyped', 'breaking', old.name, `${shapeName(old)} → ${shapeName(now)}`)];
  if (old.shape.kind !== 'object' || now.shape.kind !== 'object') return changes;
  const before = byKey<PropertyIr>(old.shape.properties, (p) => p.name);
  const after = byKey<PropertyIr>(now.shape.properties, (p) => p.name);
  const subject = (field: string): string => `${old.name}.${field}`;
  for (const [field, p] of after) {
    if (!before.has(field))
      changes.push(
        change(
          'field-added',
          p.required ? 'breaking' : 'additive',
          subject(field),
          `${typeName(p.type)}${p.required ? ', required' : ''}`,
        ),
      );
  }
  for (const [field, p] of before) {
    const q = after.get(field);
    if (q === undefined) {
      changes.push(change('field-removed', 'breaking', subject(field), typeName(p.type)));
      continue;
    }
    if (typeName(p.type) !== typeName(q.type))
      changes.push(change('field-retyped', 'breaking', subject(field), `${typeName(p.type)} → ${typeName(q.type)}`));
    // Either direction breaks someone: readers when a field may now be absent, writers when it must now be present.
    if (p.required !== q.required)
      changes.push(
        change('field-required-changed', 'breaking', subject(field), q.required ? 'now required' : 'now optional'),
      );
    if (p.description !== q.description)
      changes.push(change('description-changed', 'docs-only', subject(field), 'field description'));
  }
  return changes;
}
