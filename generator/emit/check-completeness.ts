import type { SourceFile } from 'ts-morph';
import { GeneratorError } from '../errors.js';
import { reachableModels } from '../ir/reachable-models.js';
import type { GroupVersionIr } from '../ir/types.js';

/**
 * Every schema reachable from the group's operations must be declared
 * exactly once in the emitted models (or re-exported once): a missing one would leave a dangling
 * type name, a duplicate would merge or clash silently.
 */
export function checkModelCompleteness(ir: GroupVersionIr, models: SourceFile, file: string): void {
  const declared = new Map<string, number>();
  const declare = (name: string): void => void declared.set(name, (declared.get(name) ?? 0) + 1);
  for (const d of [...models.getInterfaces(), ...models.getTypeAliases()]) declare(d.getName());
  // Models shared with the Lease API's module are re-exported from it: they count as declared here.
  for (const e of models.getExportDeclarations()) for (const n of e.getNamedExports()) declare(n.getName());
  const problems: string[] = [];
  for (const name of [...reachableModels(ir)].sort()) {
    const count = declared.get(name) ?? 0;
    if (count !== 1) problems.push(`${name} emitted ${count} times`);
  }
  if (problems.length > 0) {
    throw new GeneratorError(
      'incomplete-models',
      `model completeness check failed for ${ir.release}: ${problems.join(', ')}`,
      { file },
    );
  }
}
