import { printStructure, StructureKind, type StatementStructures, type WriterFunction } from 'ts-morph';

/** How the structures are printed; Biome then formats the text as the project's own code (format-sources.ts). */
const PRINT_OPTIONS = { indentNumberOfSpaces: 2, newLine: '\n', useSingleQuote: true } as const;

/**
 * The text of a module printed by ts-morph from its structures, never glued from strings. Printed only: a
 * ts-morph Project's createSourceFile would also parse the printed text into a TypeScript AST, which cost more
 * than the printing itself and was used by nothing but one check (check-completeness.ts reads the structures).
 */
export function printSourceFile(header: string, statements: Array<string | StatementStructures>): string {
  // Declarations are separated by one blank line, imports are kept together, as a formatter would.
  const spaced: Array<string | WriterFunction | StatementStructures> = [header];
  statements.forEach((statement, index) => {
    const previous = statements[index - 1];
    const isImport = (s: string | StatementStructures | undefined): boolean =>
      typeof s === 'object' &&
      (s.kind === StructureKind.ImportDeclaration || s.kind === StructureKind.ExportDeclaration);
    if (index > 0 && !(isImport(statement) && isImport(previous))) spaced.push((writer) => writer.blankLineIfLastNot());
    spaced.push(statement);
  });
  const text = printStructure({ kind: StructureKind.SourceFile, statements: spaced }, PRINT_OPTIONS);
  return text.replace(/\n{3,}/g, '\n\n').replace(/\s*$/, '\n');
}
