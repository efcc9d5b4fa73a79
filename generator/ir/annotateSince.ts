import type { ModelIr, OperationIr, ReleaseIr } from './types.js';

/**
 * Marks every operation, query parameter, model and field with the first
 * release (of those given, oldest first) that has it, for `@since` tags.
 */
export function annotateSince(releases: readonly ReleaseIr[]): ReleaseIr[] {
  const first = new Map<string, string>();
  const note = (key: string, release: string): void => {
    if (!first.has(key)) first.set(key, release);
  };
  for (const ir of releases) {
    for (const op of ir.operations) {
      note(`op:${op.name}`, ir.release);
      for (const p of op.queryParameters) note(`param:${op.name}?${p.name}`, ir.release);
    }
    for (const m of ir.models) {
      note(`model:${m.name}`, ir.release);
      if (m.shape.kind === 'object') for (const p of m.shape.properties) note(`field:${m.name}.${p.name}`, ir.release);
    }
  }
  const since = (key: string): string => first.get(key)!;
  const operation = (op: OperationIr): OperationIr => ({
    ...op,
    since: since(`op:${op.name}`),
    queryParameters: op.queryParameters.map((p) => ({ ...p, since: since(`param:${op.name}?${p.name}`) })),
  });
  const model = (m: ModelIr): ModelIr => ({
    ...m,
    since: since(`model:${m.name}`),
    shape: m.shape.kind === 'object' ? { ...m.shape, properties: m.shape.properties.map((p) => ({ ...p, since: since(`field:${m.name}.${p.name}`) })) } : m.shape,
  });
  return releases.map((ir) => ({ ...ir, operations: ir.operations.map(operation), models: ir.models.map(model) }));
}
