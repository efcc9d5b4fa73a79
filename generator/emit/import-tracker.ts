import {
  StructureKind,
  type ImportDeclarationStructure,
  type ImportSpecifierStructure,
  type OptionalKind,
} from 'ts-morph';
import { GeneratorError } from '../errors.js';

/**
 * Records the symbols an emitter references while it builds statements, and writes the import
 * declarations from that record (as gengo's ImportTracker and hey-api's file imports do), so an emitted
 * file imports exactly what it uses and no list is kept by hand beside the code that uses it.
 */
export interface ImportTracker {
  /** A type-only import of `name` from `module` (as `alias` when given); returns the local name to write where the type is used. */
  type(module: string, name: string, alias?: string): string;
  /** A value import of `name` from `module` (as `alias` when given); returns the local name. */
  value(module: string, name: string, alias?: string): string;
  /**
   * One declaration per module and kind: modules in code-point order (`../` before `./`), types before values,
   * names sorted. A name used both as a type and as a value is imported once, as a value (which serves as both).
   */
  declarations(): ImportDeclarationStructure[];
}

interface Imported {
  readonly module: string;
  readonly name: string;
  isValue: boolean;
}

/**
 * `specifier` turns a module as the emitter writes it into the specifier the file imports (e.g. the runtime's
 * place relative to a group version's folder); modules are sorted by the specifier the file finally holds.
 */
export function createImportTracker(specifier: (module: string) => string = (module) => module): ImportTracker {
  // Keyed by local name: one binding per name, whatever module it would come from.
  const imported = new Map<string, Imported>();
  const record = (module: string, name: string, alias: string | undefined, isValue: boolean): string => {
    const local = alias ?? name;
    const from = specifier(module);
    const earlier = imported.get(local);
    if (earlier === undefined) imported.set(local, { module: from, name, isValue });
    else if (earlier.module !== from || earlier.name !== name) {
      // Two bindings of one name would not compile; a spec model named like a runtime export (e.g. `Client`) gets here.
      throw new GeneratorError(
        'unsupported-schema',
        `${local} would be imported twice: ${earlier.name} from ${earlier.module} and ${name} from ${from}`,
      );
    } else earlier.isValue ||= isValue;
    return local;
  };
  return {
    type: (module, name, alias) => record(module, name, alias, false),
    value: (module, name, alias) => record(module, name, alias, true),
    declarations: () => {
      const entries = [...imported.entries()];
      const modules = [...new Set(entries.map(([, i]) => i.module))].sort(byCodePoint);
      return modules.flatMap((module) => {
        const from = entries.filter(([, i]) => i.module === module);
        return [
          ...declaration(
            module,
            from.filter(([, i]) => !i.isValue),
            true,
          ),
          ...declaration(
            module,
            from.filter(([, i]) => i.isValue),
            false,
          ),
        ];
      });
    },
  };
}

type Specifier = OptionalKind<ImportSpecifierStructure> | string;

function declaration(
  module: string,
  names: ReadonlyArray<readonly [string, Imported]>,
  isTypeOnly: boolean,
): ImportDeclarationStructure[] {
  if (names.length === 0) return [];
  const specifiers = names
    .map(([local, i]): Specifier => (local === i.name ? local : { name: i.name, alias: local }))
    .sort((a, b) => byCodePoint(specifierText(a), specifierText(b)));
  return [
    {
      kind: StructureKind.ImportDeclaration,
      ...(isTypeOnly ? { isTypeOnly } : {}),
      moduleSpecifier: module,
      namedImports: specifiers,
    },
  ];
}

/** Names sort as written: `MicroTime as MicroTimeString` by `MicroTime`, as a formatter would order them. */
function specifierText(specifier: Specifier): string {
  return typeof specifier === 'string' ? specifier : `${specifier.name} as ${specifier.alias ?? ''}`;
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
