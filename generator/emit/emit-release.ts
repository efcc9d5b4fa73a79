import {
  StructureKind,
  VariableDeclarationKind,
  type ImportDeclarationStructure,
  type StatementStructures,
} from 'ts-morph';
import type { GroupVersionIr, ReleaseIr } from '../ir/types.js';
import { releaseModuleName } from '../shared/release-names.js';
import { groupVersionNamespace } from '../shared/group-version.js';
import { checkModelCompleteness } from './check-completeness.js';
import { GeneratorError, isGeneratorError } from '../errors.js';
import { generatedHeader } from './header.js';
import { modelStatements, type SharedModels } from './emit-models.js';
import { operationStatements } from './emit-operations.js';
import { reachableModels } from '../ir/reachable-models.js';
import { clientOperations } from '../ir/client-surface.js';
import { watchStatements } from './emit-watches.js';
import { pathStatements, singleQuoted } from './emit-paths.js';
import { printSourceFile } from './print-source-file.js';
import { jsDocText } from './js-doc.js';
import { GROUP_VERSION_FOLDER, groupVersionFolder, RELEASE_FOLDER, type ModulePlace } from './module-place.js';

export interface ReleaseSource {
  readonly ir: ReleaseIr;
  /** Project-relative path of the normalised document, for headers and errors. */
  readonly documentPath: string;
  readonly contentHash: string;
}

/**
 * The TypeScript files of one release, keyed by path relative to `src/`. The Lease API (coordination.k8s.io/v1)
 * fills the release folder as it always has; every other group version the release serves gets a folder of the
 * same modules under it (`v1_33/v1beta1/`), which the release entry exports as a namespace (`v1beta1`): upstream
 * names collide across versions (`createNamespacedLeaseCandidate` is in v1alpha2 and v1beta1).
 */
export function emitRelease(source: ReleaseSource): Map<string, string> {
  const { ir } = source;
  const dir = releaseModuleName(ir.release);
  const header = generatedHeader(`${source.documentPath} (Kubernetes ${ir.release}, ${source.contentHash})`);
  const files = new Map<string, string>();
  const lease = ir.groupVersions.find((gv) => groupVersionNamespace(gv) === undefined);
  const shared: SharedModels | undefined =
    lease === undefined
      ? undefined
      : { module: '../models.js', schemaNames: new Set(lease.models.map((m) => m.schemaName)) };
  const namespaceImports: ImportDeclarationStructure[] = [];
  const namespaces: string[] = [];
  for (const gv of ir.groupVersions) {
    const namespace = groupVersionNamespace(gv);
    const folder = groupVersionFolder(dir, namespace);
    const place = namespace === undefined ? RELEASE_FOLDER : GROUP_VERSION_FOLDER;
    for (const [file, text] of emitGroupVersion(gv, {
      folder,
      place,
      header,
      documentPath: source.documentPath,
      ...(namespace === undefined || shared === undefined ? {} : { shared }),
    }))
      files.set(file, text);
    if (namespace !== undefined) {
      namespaceImports.push({
        kind: StructureKind.ImportDeclaration,
        namespaceImport: namespace,
        moduleSpecifier: `./${namespace}/index.js`,
      });
      namespaces.push(namespaceExport(namespace, gv));
    }
  }
  files.set(
    `${dir}/index.ts`,
    printSourceFile(header, [
      ...namespaceImports,
      { kind: StructureKind.ExportDeclaration, moduleSpecifier: '../runtime/index.js' },
      ...(lease === undefined ? [] : groupVersionExports(lease)),
      ...namespaces,
      {
        kind: StructureKind.VariableStatement,
        isExported: true,
        declarationKind: VariableDeclarationKind.Const,
        docs: [{ description: 'The Kubernetes release these types and functions were generated from.' }],
        declarations: [{ name: 'release', initializer: singleQuoted(ir.release) }],
      },
    ]),
  );
  return files;
}

/**
 * A group version's namespace export, with its summary twice: TypeScript shows the one on the export specifier on
 * hover (it reads none from `export * as`), TypeDoc documents the namespace from the one on the declaration.
 */
function namespaceExport(namespace: string, gv: GroupVersionIr): string {
  const doc = jsDocText(
    `The ${gv.group}/${gv.version} API of Kubernetes ${gv.release}: its models, path builders, operations and watches, ` +
      `in a namespace of their own because upstream names repeat across versions (\`${namespace}.${exampleOperation(gv)}\`).`,
  );
  return `/** ${doc} */\nexport {\n  /** ${doc} */\n  ${namespace},\n};`;
}

/** An operation to name in a namespace's summary: the first create, else the first operation. */
function exampleOperation(gv: GroupVersionIr): string {
  return (gv.operations.find((o) => o.kind === 'create') ?? gv.operations[0])?.name ?? 'getAPIResources';
}

interface GroupVersionPlace {
  readonly folder: string;
  readonly place: ModulePlace;
  readonly header: string;
  readonly documentPath: string;
  readonly shared?: SharedModels;
}

/** models, paths, operations and watches of one group version in `folder`, and (outside the release folder) its index. */
function emitGroupVersion(gv: GroupVersionIr, where: GroupVersionPlace): Map<string, string> {
  const { folder, place, header } = where;
  const files = new Map<string, string>();
  const statementsOf = (module: string, build: () => Array<string | StatementStructures>) =>
    reportedIn(`src/${folder}/${module}`, where, build);
  const printModule = (module: string, build: () => Array<string | StatementStructures>): string =>
    printSourceFile(header, statementsOf(module, build));
  const models = statementsOf('models.ts', () => modelStatements(gv, place, where.shared));
  checkModelCompleteness(gv, models, where.documentPath);
  files.set(`${folder}/models.ts`, printSourceFile(header, models));
  files.set(
    `${folder}/paths.ts`,
    printModule('paths.ts', () => pathStatements(gv, place)),
  );
  files.set(
    `${folder}/operations.ts`,
    printModule('operations.ts', () => operationStatements(gv, place)),
  );
  files.set(
    `${folder}/watches.ts`,
    printModule('watches.ts', () => watchStatements(gv, place)),
  );
  if (place !== RELEASE_FOLDER) {
    files.set(
      `${folder}/index.ts`,
      printSourceFile(header, [
        ...groupVersionExports(gv),
        {
          kind: StructureKind.VariableStatement,
          isExported: true,
          declarationKind: VariableDeclarationKind.Const,
          docs: [{ description: "The `apiVersion` of this group version's objects." }],
          declarations: [{ name: 'apiVersion', initializer: singleQuoted(`${gv.group}/${gv.version}`) }],
        },
      ]),
    );
  }
  return files;
}

/**
 * A module's statements; what an emitter refuses without knowing where (two imports of one name, from a spec model
 * named like a runtime export) is reported against the document, naming the module.
 */
function reportedIn(
  module: string,
  where: GroupVersionPlace,
  build: () => Array<string | StatementStructures>,
): Array<string | StatementStructures> {
  try {
    return build();
  } catch (error) {
    if (!isGeneratorError(error) || error.file !== undefined) throw error;
    throw new GeneratorError(error.code, `${module}: ${error.message}`, { file: where.documentPath });
  }
}

function groupVersionExports(gv: GroupVersionIr): StatementStructures[] {
  return [
    // Named, not `export *`: a model (e.g. MicroTime) wins over a runtime export of the same name.
    {
      kind: StructureKind.ExportDeclaration,
      isTypeOnly: true,
      moduleSpecifier: './models.js',
      namedExports: exportedModelNames(gv),
    },
    { kind: StructureKind.ExportDeclaration, moduleSpecifier: './paths.js' },
    { kind: StructureKind.ExportDeclaration, moduleSpecifier: './operations.js' },
    { kind: StructureKind.ExportDeclaration, moduleSpecifier: './watches.js' },
  ];
}

/**
 * The models a group version's entry point exports: those its functions use. The spec's WatchEvent (reached only from
 * the deprecated watch operations) would shadow the runtime's WatchEvent<T>, which is what watches yield.
 */
export function exportedModelNames(ir: GroupVersionIr): string[] {
  const used = reachableModels({ ...ir, operations: clientOperations(ir) });
  return ir.models
    .map((m) => m.name)
    .filter((name) => used.has(name))
    .sort();
}
