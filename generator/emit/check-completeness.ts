import { StructureKind, type StatementStructures } from 'ts-morph';
import { GeneratorError } from '../errors.js';
import { reachableModels } from '../ir/reachable-models.js';
import type { GroupVersionIr } from '../ir/types.js';

/**
 * Every schema reachable from the group's operations must be declared
 * exactly once in the models module's statements (or re-exported once): a missing one would leave a dangling
 * type name, a duplicate would merge or clash silently.
 */
export function checkModelCompleteness(
  ir: GroupVersionIr,
  models: ReadonlyArray<string | StatementStructures>,
  file: string,
): void {
  const declared = new Map<string, number>();
  const declare = (name: string): void => void declared.set(name, (declared.get(name) ?? 0) + 1);
  for (const statement of models) {
    if (typeof statement === 'string') continue;
    if (statement.kind === StructureKind.Interface || statement.kind === StructureKind.TypeAlias)
      declare(statement.name);
    // Models shared with the Lease API's module are re-exported from it: they count as declared here.
    if (statement.kind === StructureKind.ExportDeclaration && Array.isArray(statement.namedExports))
      for (const named of statement.namedExports) {
        if (typeof named === 'string') declare(named.split(' as ').at(-1)!.trim());
        else if (typeof named === 'object') declare(named.alias ?? named.name);
      }
  }
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
