import { ts } from 'ts-morph';

const COMPILER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  declaration: true,
  isolatedDeclarations: true,
  removeComments: false,
  newLine: ts.NewLineKind.LineFeed,
};

/**
 * `src/**.ts` → `dist/**.js` + `dist/**.d.ts`, file by file. Every exported
 * declaration carries an explicit type (isolatedDeclarations), so neither
 * needs a whole-program type check: generation stays fast. `tsc --strict`
 * over the sources is a separate test.
 */
export function compileDist(sources: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [path, text] of sources) {
    if (!path.endsWith('.ts')) continue;
    const base = path.slice(0, -3);
    const js = ts.transpileModule(text, { compilerOptions: COMPILER_OPTIONS, fileName: path, reportDiagnostics: false });
    const header = leadingLineComments(text);
    out.set(`${base}.js`, withHeader(header, js.outputText));
    const dts = ts.transpileDeclaration(text, { compilerOptions: COMPILER_OPTIONS, fileName: path, reportDiagnostics: true });
    const errors = (dts.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
    if (errors.length > 0) throw new Error(`${path}: cannot emit declarations: ${errors[0]}`);
    out.set(`${base}.d.ts`, withHeader(header, dts.outputText));
  }
  return out;
}

/** The `//` lines a file starts with: the generated files' DO NOT EDIT header, which the compiler may drop with the statement it is attached to. */
function leadingLineComments(text: string): string {
  const match = /^(?:\/\/[^\n]*\n)+/.exec(text);
  return match === null ? '' : match[0];
}

function withHeader(header: string, output: string): string {
  return header === '' || output.startsWith(header) ? output : header + output;
}
