import type { GroupVersionIr, ModelIr, OperationIr, ReleaseIr } from './types.js';

/**
 * Marks every operation, query parameter, model and field with the first
 * release (of those given, oldest first) whose same group version has it, for
 * `@since` tags: v1beta1's LeaseCandidate is new in 1.33 even though v1alpha1
 * had a LeaseCandidate in 1.31.
 */
export function annotateSince(releases: readonly ReleaseIr[]): ReleaseIr[] {
  const first = new Map<string, string>();
  const note = (key: string, release: string): void => {
    if (!first.has(key)) first.set(key, release);
  };
  const scope = (gv: GroupVersionIr): string => `${gv.group}/${gv.version}:`;
  for (const ir of releases) {
    for (const gv of ir.groupVersions) {
      const s = scope(gv);
      for (const op of gv.operations) {
        note(`${s}op:${op.name}`, ir.release);
        for (const p of op.queryParameters) note(`${s}param:${op.name}?${p.name}`, ir.release);
      }
      for (const m of gv.models) {
        note(`${s}model:${m.name}`, ir.release);
        if (m.shape.kind === 'object')
          for (const p of m.shape.properties) note(`${s}field:${m.name}.${p.name}`, ir.release);
      }
    }
  }
  const annotate = (gv: GroupVersionIr): GroupVersionIr => {
    const s = scope(gv);
    const since = (key: string): string => first.get(s + key)!;
    const operation = (op: OperationIr): OperationIr => ({
      ...op,
      since: since(`op:${op.name}`),
      queryParameters: op.queryParameters.map((p) => ({ ...p, since: since(`param:${op.name}?${p.name}`) })),
    });
    const model = (m: ModelIr): ModelIr => ({
      ...m,
      since: since(`model:${m.name}`),
      shape:
        m.shape.kind === 'object'
          ? {
              ...m.shape,
              properties: m.shape.properties.map((p) => ({ ...p, since: since(`field:${m.name}.${p.name}`) })),
            }
          : m.shape,
    });
    return { ...gv, operations: gv.operations.map(operation), models: gv.models.map(model) };
  };
  return releases.map((ir) => ({ ...ir, groupVersions: ir.groupVersions.map(annotate) }));
}
