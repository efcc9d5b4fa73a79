import type { SourceFile } from 'ts-morph';
import { GeneratorError } from '../errors.js';
import { reachableModels } from '../ir/reachableModels.js';
import type { ReleaseIr } from '../ir/types.js';

/**
 * Every schema reachable from the group's operations must be declared
 * exactly once in the emitted models: a missing one would leave a dangling
 * type name, a duplicate would merge or clash silently.
 */
export function checkModelCompleteness(ir: ReleaseIr, models: SourceFile, file: string): void {
  const declared = new Map<string, number>();
  for (const d of [...models.getInterfaces(), ...models.getTypeAliases()]) declared.set(d.getName(), (declared.get(d.getName()) ?? 0) + 1);
  const problems: string[] = [];
  for (const name of [...reachableModels(ir)].sort()) {
    const count = declared.get(name) ?? 0;
    if (count !== 1) problems.push(`${name} emitted ${count} times`);
  }
  if (problems.length > 0) {
    throw new GeneratorError('incomplete-models', `model completeness check failed for ${ir.release}: ${problems.join(', ')}`, { file });
  }
}
