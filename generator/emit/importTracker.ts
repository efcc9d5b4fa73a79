import { StructureKind, type ImportDeclarationStructure } from 'ts-morph';

/**
 * Records the symbols an emitter references while it builds statements, and writes the import
 * declarations from that record (as gengo's ImportTracker and hey-api's file imports do), so an emitted
 * file imports exactly what it uses and no list is kept by hand beside the code that uses it.
 */
export interface ImportTracker {
  /** A type-only import of `name` from `module`; returns `name`, to write where the type is used. */
  type(module: string, name: string): string;
  /** A value import of `name` from `module`; returns `name`. */
  value(module: string, name: string): string;
  /** One declaration per module and kind: modules in code-point order (`../` before `./`), types before values, names sorted. */
  declarations(): ImportDeclarationStructure[];
}

export function createImportTracker(): ImportTracker {
  const types = new Map<string, Set<string>>();
  const values = new Map<string, Set<string>>();
  const record = (into: Map<string, Set<string>>, module: string, name: string): string => {
    const names = into.get(module) ?? new Set<string>();
    names.add(name);
    into.set(module, names);
    return name;
  };
  return {
    type: (module, name) => record(types, module, name),
    value: (module, name) => record(values, module, name),
    declarations: () => {
      const modules = [...new Set([...types.keys(), ...values.keys()])].sort(byCodePoint);
      return modules.flatMap((module) => [
        ...declaration(module, types.get(module), true),
        ...declaration(module, values.get(module), false),
      ]);
    },
  };
}

function declaration(
  module: string,
  names: ReadonlySet<string> | undefined,
  isTypeOnly: boolean,
): ImportDeclarationStructure[] {
  if (names === undefined || names.size === 0) return [];
  return [
    {
      kind: StructureKind.ImportDeclaration,
      ...(isTypeOnly ? { isTypeOnly } : {}),
      moduleSpecifier: module,
      namedImports: [...names].sort(byCodePoint),
    },
  ];
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
