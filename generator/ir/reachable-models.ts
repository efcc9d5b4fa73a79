import { referencedModels } from './type-refs.js';
import type { GroupVersionIr } from './types.js';

/** Names of every model reachable from the release's operations (request bodies, responses), transitively. */
export function reachableModels(ir: GroupVersionIr): Set<string> {
  const byName = new Map(ir.models.map((m) => [m.name, m]));
  const reached = new Set<string>();
  const pending: string[] = [];
  for (const operation of ir.operations) {
    if (operation.requestBody !== undefined) pending.push(...referencedModels(operation.requestBody.type));
    for (const response of operation.responses)
      if (response.type !== undefined) pending.push(...referencedModels(response.type));
  }
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (reached.has(name)) continue;
    reached.add(name);
    const model = byName.get(name);
    if (model === undefined) continue;
    if (model.shape.kind === 'object') {
      for (const p of model.shape.properties) pending.push(...referencedModels(p.type));
      if (model.shape.additionalProperties !== undefined)
        pending.push(...referencedModels(model.shape.additionalProperties));
    } else if (model.shape.kind === 'alias') pending.push(...referencedModels(model.shape.type));
  }
  return reached;
}
