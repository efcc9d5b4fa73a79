import {
  IndentationText,
  NewLineKind,
  Project,
  QuoteKind,
  StructureKind,
  type SourceFile,
  type StatementStructures,
  type WriterFunction,
} from 'ts-morph';

/** One in-memory ts-morph project per generation run; files are printed from AST structures, never parsed from glued text. */
export function createEmitProject(): Project {
  return new Project({
    useInMemoryFileSystem: true,
    manipulationSettings: {
      indentationText: IndentationText.TwoSpaces,
      quoteKind: QuoteKind.Single,
      newLineKind: NewLineKind.LineFeed,
      useTrailingCommas: true,
    },
    compilerOptions: { strict: true },
  });
}

export function printSourceFile(
  project: Project,
  path: string,
  header: string,
  statements: Array<string | StatementStructures>,
): { text: string; sourceFile: SourceFile } {
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
  const structure = { kind: StructureKind.SourceFile as const, statements: spaced };
  const sourceFile = project.createSourceFile(path, structure, { overwrite: true });
  return {
    text: sourceFile
      .getFullText()
      .replace(/\n{3,}/g, '\n\n')
      .replace(/\s*$/, '\n'),
    sourceFile,
  };
}
