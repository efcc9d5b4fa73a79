// operations.ts of a group version: for each operation the client serves, its types (operation-types.ts) and
// its functions (operation-functions.ts).
import type { StatementStructures } from 'ts-morph';
import { clientOperations } from '../ir/client-surface.js';
import type { GroupVersionIr, OperationIr } from '../ir/types.js';
import { createImportTracker, type ImportTracker } from './import-tracker.js';
import { RELEASE_FOLDER, relocateRuntime, type ModulePlace } from './module-place.js';
import { operationFunctionDeclarations } from './operation-functions.js';
import { operationShape, operationTypeDeclarations } from './operation-types.js';

export function operationStatements(
  ir: GroupVersionIr,
  place: ModulePlace = RELEASE_FOLDER,
): Array<string | StatementStructures> {
  const imports = createImportTracker((module) => relocateRuntime(module, place));
  const declarations = clientOperations(ir).flatMap((operation) => operationDeclarations(operation, imports));
  return [...imports.declarations(), ...declarations];
}

/**
 * The names `operationStatements` exports for one operation besides the function itself (its `…WithResponse` twin
 * and its parameter, query and response types), read off the declarations themselves: the package README lists them.
 */
export function operationCompanionNames(operation: OperationIr): string[] {
  return (
    operationDeclarations(operation, createImportTracker())
      .flatMap((d) => ('name' in d && typeof d.name === 'string' ? [d.name] : []))
      .filter((name) => name !== operation.name)
      // The `…WithResponse` twin first, then the types.
      .sort((a, b) => Number(/^[A-Z]/.test(a)) - Number(/^[A-Z]/.test(b)))
  );
}

/** An operation's types, then its functions. */
function operationDeclarations(operation: OperationIr, imports: ImportTracker): StatementStructures[] {
  const shape = operationShape(operation);
  return [...operationTypeDeclarations(shape, imports), ...operationFunctionDeclarations(shape, imports)];
}
