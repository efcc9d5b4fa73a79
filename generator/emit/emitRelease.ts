import { StructureKind, VariableDeclarationKind, type Project } from 'ts-morph';
import type { ReleaseIr } from '../ir/types.js';
import { releaseModuleName } from '../shared/releaseNames.js';
import { checkModelCompleteness } from './checkCompleteness.js';
import { generatedHeader } from './header.js';
import { modelStatements } from './emitModels.js';
import { clientOperations, operationStatements } from './emitOperations.js';
import { reachableModels } from '../ir/reachableModels.js';
import { watchStatements } from './emitWatches.js';
import { pathStatements, singleQuoted } from './emitPaths.js';
import { printSourceFile } from './tsProject.js';

export interface ReleaseSource {
  readonly ir: ReleaseIr;
  /** Project-relative path of the normalised document, for headers and errors. */
  readonly documentPath: string;
  readonly contentHash: string;
}

/** The TypeScript files of one release, keyed by path relative to `src/`. */
export function emitRelease(project: Project, source: ReleaseSource): Map<string, string> {
  const { ir } = source;
  const dir = releaseModuleName(ir.release);
  const header = generatedHeader(`${source.documentPath} (Kubernetes ${ir.release}, ${source.contentHash})`);
  const files = new Map<string, string>();

  const models = printSourceFile(project, `/src/${dir}/models.ts`, header, modelStatements(ir));
  checkModelCompleteness(ir, models.sourceFile, source.documentPath);
  files.set(`${dir}/models.ts`, models.text);
  files.set(`${dir}/paths.ts`, printSourceFile(project, `/src/${dir}/paths.ts`, header, pathStatements(ir)).text);
  files.set(`${dir}/operations.ts`, printSourceFile(project, `/src/${dir}/operations.ts`, header, operationStatements(ir)).text);
  files.set(`${dir}/watches.ts`, printSourceFile(project, `/src/${dir}/watches.ts`, header, watchStatements(ir)).text);
  const modelNames = exportedModelNames(ir);
  files.set(
    `${dir}/index.ts`,
    printSourceFile(project, `/src/${dir}/index.ts`, header, [
      { kind: StructureKind.ExportDeclaration, moduleSpecifier: '../runtime/index.js' },
      // Named, not `export *`: a model (e.g. MicroTime) wins over a runtime export of the same name.
      { kind: StructureKind.ExportDeclaration, isTypeOnly: true, moduleSpecifier: './models.js', namedExports: modelNames },
      { kind: StructureKind.ExportDeclaration, moduleSpecifier: './paths.js' },
      { kind: StructureKind.ExportDeclaration, moduleSpecifier: './operations.js' },
      { kind: StructureKind.ExportDeclaration, moduleSpecifier: './watches.js' },
      {
        kind: StructureKind.VariableStatement,
        isExported: true,
        declarationKind: VariableDeclarationKind.Const,
        docs: [{ description: 'The Kubernetes release these types and functions were generated from.' }],
        declarations: [{ name: 'release', initializer: singleQuoted(ir.release) }],
      },
    ]).text,
  );
  return files;
}

/**
 * The models a release's entry point exports: those its functions use. The spec's WatchEvent (reached only from
 * the deprecated watch operations) would shadow the runtime's WatchEvent<T>, which is what watches yield.
 */
export function exportedModelNames(ir: ReleaseIr): string[] {
  const used = reachableModels({ ...ir, operations: clientOperations(ir) });
  return ir.models.map((m) => m.name).filter((name) => used.has(name)).sort();
}
