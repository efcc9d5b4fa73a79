import { StructureKind, type StatementStructures } from 'ts-morph';
import type { GroupVersionIr, OperationIr, ParameterIr } from '../ir/types.js';
import { jsDocs, sinceTag } from './js-doc.js';
import { pathBuilderCall } from './emit-paths.js';
import { propertyName, typeText } from './type-text.js';
import { RELEASE_FOLDER, relocateRuntime, type ModulePlace } from './module-place.js';
import { createImportTracker, type ImportTracker } from './import-tracker.js';

/** List parameters that choose which objects a watch, listAll or informer covers; paging and watch parameters are the runtime's. */
const SELECTION_PARAMETERS: ReadonlySet<string> = new Set(['labelSelector', 'fieldSelector']);

export interface CollectionFunctions {
  readonly list: OperationIr;
  /** The kind listed, e.g. `Lease` (the list response model without `List`). */
  readonly kind: string;
  readonly watch: string;
  readonly listAll: string;
  readonly informer: string;
  readonly params: string;
  readonly selection: readonly ParameterIr[];
}

/**
 * Watches, paged lists and informers are built on the list operations
 * (`?watch=true`), not on the deprecated /watch/ paths:
 *   listNamespacedLease       → watchNamespacedLeases, listAllNamespacedLeases, createNamespacedLeaseInformer
 *   listLeaseForAllNamespaces → watchLeasesForAllNamespaces, listAllLeasesForAllNamespaces, createLeaseInformerForAllNamespaces
 */
export function collectionFunctions(ir: GroupVersionIr): CollectionFunctions[] {
  return ir.operations
    .filter((o) => o.kind === 'list' || o.kind === 'listForAllNamespaces')
    .flatMap((list) => {
      const response = list.responses.find((r) => r.code === '200')?.type;
      if (response?.kind !== 'model' || !response.name.endsWith('List')) return [];
      const kind = response.name.slice(0, -'List'.length);
      const stem = list.name.replace(/^list/, '');
      const plural = stem.replace(new RegExp(`${kind}(?=ForAllNamespaces$|$)`), `${kind}s`);
      const informer = stem.endsWith('ForAllNamespaces')
        ? `create${stem.replace(/ForAllNamespaces$/, '')}InformerForAllNamespaces`
        : `create${stem}Informer`;
      return [
        {
          list,
          kind,
          watch: `watch${plural}`,
          listAll: `listAll${plural}`,
          informer,
          params: `${plural.charAt(0).toUpperCase()}${plural.slice(1)}Selection`,
          selection: list.queryParameters.filter((p) => SELECTION_PARAMETERS.has(p.name)),
        },
      ];
    });
}

export function watchStatements(
  ir: GroupVersionIr,
  place: ModulePlace = RELEASE_FOLDER,
): Array<string | StatementStructures> {
  const collections = collectionFunctions(ir);
  const imports = createImportTracker((module) => relocateRuntime(module, place));
  const declarations = collections.flatMap((c) => collectionDeclarations(c, imports));
  return [...imports.declarations(), ...declarations];
}

const TRANSPORT = '../runtime/transport.js';
const WATCH = '../runtime/watch/index.js';
const MODELS = './models.js';
const PATHS = './paths.js';

function collectionDeclarations(c: CollectionFunctions, imports: ImportTracker): StatementStructures[] {
  imports.value(PATHS, c.list.pathBuilder);
  const path = pathBuilderCall(c.list);
  const kind = imports.type(MODELS, c.kind);
  const client = { name: 'client', type: imports.type(TRANSPORT, 'Client') };
  const watchOptions = { name: 'options', type: imports.type(WATCH, 'WatchOptions'), hasQuestionToken: true };
  const target =
    c.selection.length === 0
      ? `{ path: ${path} }`
      : `{ path: ${path}, query: { ${c.selection.map((p) => `${propertyName(p.name)}: params.${p.name}`).join(', ')} } }`;
  // Without path parameters every selection field is optional, and so is the argument.
  const paramsParameter = {
    name: 'params',
    type: c.params,
    ...(c.list.pathParameters.length === 0 ? { initializer: '{}' } : {}),
  };
  const where = `\`GET ${c.list.path}\``;
  const since = sinceTag(c.list);
  return [
    {
      kind: StructureKind.Interface,
      name: c.params,
      isExported: true,
      docs: jsDocs(`Which ${c.kind}s \`${c.watch}\`, \`${c.listAll}\` and \`${c.informer}\` cover.`),
      properties: [
        ...c.list.pathParameters.map((p) => ({
          name: propertyName(p.name),
          type: typeText(p.type),
          docs: jsDocs(p.description),
        })),
        ...c.selection.map((p) => ({
          name: propertyName(p.name),
          type: `${typeText(p.type)} | undefined`,
          hasQuestionToken: true,
          docs: jsDocs(p.description, sinceTag(p)),
        })),
      ],
    },
    {
      kind: StructureKind.Function,
      isExported: true,
      name: c.watch,
      docs: jsDocs(
        `Watches ${c.kind}s (${where} with \`watch=true\`): an async iterable of typed events that lists first (or starts at \`options.resourceVersion\`), ` +
          'resumes from the last resourceVersion after a lost connection, a server-side timeout or an idle stream (capped exponential backoff with jitter), ' +
          'and answers a 410 Gone by re-listing and yielding a `RESYNC` with the complete state. An in-stream ERROR is never yielded as an event. ' +
          'Abort `options.signal` (or `break`) to stop.',
        [
          { tagName: 'throws', text: 'KubernetesApiError, WatchError or WatchDecodeError when the watch cannot go on' },
          ...since,
        ],
      ),
      parameters: [client, paramsParameter, watchOptions],
      returnType: `AsyncIterable<${imports.type(WATCH, 'WatchNotification')}<${kind}>>`,
      statements: [`return ${imports.value(WATCH, 'watch')}<${kind}>(client, ${target}, options);`],
    },
    {
      kind: StructureKind.Function,
      isExported: true,
      name: c.listAll,
      docs: jsDocs(
        `Lists every ${c.kind} (${where}), page by page with \`limit\`/\`continue\`. When a continue token expires (410), ` +
          "`options.onExpired` chooses: 'restart' (default; items may repeat) or 'continue' with the inconsistent token the server offers; `options.onExpiredContinue` says which happened.",
        since,
      ),
      parameters: [
        client,
        paramsParameter,
        { name: 'options', type: imports.type(WATCH, 'ListAllOptions'), hasQuestionToken: true },
      ],
      returnType: `AsyncIterable<${kind}>`,
      statements: [`return ${imports.value(WATCH, 'listAll')}<${kind}>(client, ${target}, options);`],
    },
    {
      kind: StructureKind.Function,
      isExported: true,
      name: c.informer,
      docs: jsDocs(
        `An informer over ${c.kind}s (${where}): list + watch into a cache keyed by namespace/name, with onAdd/onUpdate/onDelete, ` +
          '`hasSynced()`, and a resync after 410 that diffs the complete state against the cache. It survives disconnects; only `stop()`, the signal or a non-retriable error end it.',
        since,
      ),
      parameters: [
        client,
        paramsParameter,
        { name: 'handlers', type: `${imports.type(WATCH, 'InformerHandlers')}<${kind}>`, hasQuestionToken: true },
        watchOptions,
      ],
      returnType: `${imports.type(WATCH, 'Informer')}<${kind}>`,
      statements: [`return ${imports.value(WATCH, 'createInformer')}<${kind}>(client, ${target}, handlers, options);`],
    },
  ];
}
