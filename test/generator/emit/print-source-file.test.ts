import { StructureKind } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { printSourceFile } from '../../../generator/emit/print-source-file.js';

describe('printing a module from structures', () => {
  it('puts the header first, keeps imports together, separates declarations by one blank line, ends in one newline', () => {
    const text = printSourceFile('// header', [
      { kind: StructureKind.ImportDeclaration, moduleSpecifier: './a.js', namedImports: ['A'], isTypeOnly: true },
      { kind: StructureKind.ExportDeclaration, moduleSpecifier: './b.js' },
      { kind: StructureKind.TypeAlias, name: 'X', type: 'A', isExported: true },
      { kind: StructureKind.Interface, name: 'Y', isExported: true, properties: [{ name: 'y', type: "'q'" }] },
    ]);
    expect(text).toBe(
      [
        '// header',
        "import type { A } from './a.js';",
        "export * from './b.js';",
        '',
        'export type X = A;',
        '',
        'export interface Y {',
        "  y: 'q';",
        '}',
        '',
      ].join('\n'),
    );
  });

  it('collapses runs of blank lines that raw statements bring', () => {
    const text = printSourceFile('', ['const a = 1;\n\n\n', 'const b = 2;']);
    expect(text).not.toMatch(/\n{3,}/);
    expect(text.endsWith('const b = 2;\n')).toBe(true);
  });
});
