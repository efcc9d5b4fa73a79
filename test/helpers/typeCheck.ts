import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { PROJECT_ROOT } from './project.js';

/** Type-checks every .ts file below a directory under `--strict`, as a consumer's tsc would; returns the diagnostics as lines. */
export function typeCheckDirectory(dir: string, extraFiles: readonly string[] = []): string[] {
  const files: string[] = [...extraFiles];
  const walk = (current: string): void => {
    for (const name of readdirSync(current)) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith('.ts') && !path.endsWith('.d.ts')) files.push(path);
    }
  };
  walk(dir);
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: ['node'],
    typeRoots: [join(PROJECT_ROOT, 'node_modules', '@types')],
    skipLibCheck: true,
    noUncheckedIndexedAccess: true,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file !== undefined && d.start !== undefined ? `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : '';
    return where + ts.flattenDiagnosticMessageText(d.messageText, ' ');
  });
}
