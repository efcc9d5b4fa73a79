import {
  StructureKind,
  type FunctionDeclarationStructure,
  type InterfaceDeclarationStructure,
  type OptionalKind,
  type ParameterDeclarationStructure,
  type StatementStructures,
} from 'ts-morph';
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
  /** The kind in the plural, for prose: `Leases`, `PriorityClasses`. */
  readonly kinds: string;
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
 *   listPriorityClass         → watchPriorityClasses, listAllPriorityClasses, createPriorityClassInformer
 * The plural is the resource's, from the list's path (`priorityclasses`), not the kind with an `s`.
 */
export function collectionFunctions(ir: GroupVersionIr): CollectionFunctions[] {
  return ir.operations
    .filter((o) => o.kind === 'list' || o.kind === 'listForAllNamespaces')
    .flatMap((list) => {
      const response = list.responses.find((r) => r.code === '200')?.type;
      if (response?.kind !== 'model' || !response.name.endsWith('List')) return [];
      const kind = response.name.slice(0, -'List'.length);
      const stem = list.name.replace(/^list/, '');
      // Every list operation's path names its resource; the discovery path, which names none, lists nothing.
      const kinds = pluralOfKind(kind, list.resource ?? `${kind.toLowerCase()}s`);
      const plural = stem.replace(new RegExp(`${kind}(?=ForAllNamespaces$|$)`), kinds);
      const informer = stem.endsWith('ForAllNamespaces')
        ? `create${stem.replace(/ForAllNamespaces$/, '')}InformerForAllNamespaces`
        : `create${stem}Informer`;
      return [
        {
          list,
          kind,
          kinds,
          watch: `watch${plural}`,
          listAll: `listAll${plural}`,
          informer,
          params: `${plural.charAt(0).toUpperCase()}${plural.slice(1)}Selection`,
          selection: list.queryParameters.filter((p) => SELECTION_PARAMETERS.has(p.name)),
        },
      ];
    });
}

/**
 * A resource's plural in its kind's capitals: `PriorityClass` and `priorityclasses` → `PriorityClasses`,
 * `NetworkPolicy` and `networkpolicies` → `NetworkPolicies`: the kind's letters as far as the two agree, then the
 * plural's (apimachinery's UnsafeGuessKindToResource only guesses a plural; the path says it).
 */
export function pluralOfKind(kind: string, plural: string): string {
  let shared = 0;
  while (shared < kind.length && shared < plural.length && kind.charAt(shared).toLowerCase() === plural.charAt(shared))
    shared++;
  return shared === 0 ? plural.charAt(0).toUpperCase() + plural.slice(1) : kind.slice(0, shared) + plural.slice(shared);
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

/** What the selection type and the three functions of one collection are built from. */
interface CollectionContext {
  readonly c: CollectionFunctions;
  readonly imports: ImportTracker;
  /** The kind listed, as the functions' type argument (imported from the models). */
  readonly kind: string;
  /** `{ path, query }` of the list request the functions start from. */
  readonly target: string;
  readonly parameters: {
    readonly client: OptionalKind<ParameterDeclarationStructure>;
    readonly params: OptionalKind<ParameterDeclarationStructure>;
    readonly watchOptions: OptionalKind<ParameterDeclarationStructure>;
  };
  /** `` `GET /apis/…/leases` ``, for the summaries. */
  readonly where: string;
  readonly since: ReturnType<typeof sinceTag>;
}

function collectionDeclarations(c: CollectionFunctions, imports: ImportTracker): StatementStructures[] {
  imports.value(PATHS, c.list.pathBuilder);
  const path = pathBuilderCall(c.list);
  const context: CollectionContext = {
    c,
    imports,
    kind: imports.type(MODELS, c.kind),
    target:
      c.selection.length === 0
        ? `{ path: ${path} }`
        : `{ path: ${path}, query: { ${c.selection.map((p) => `${propertyName(p.name)}: params.${p.name}`).join(', ')} } }`,
    parameters: {
      client: { name: 'client', type: imports.type(TRANSPORT, 'Client') },
      // Without path parameters every selection field is optional, and so is the argument.
      params: { name: 'params', type: c.params, ...(c.list.pathParameters.length === 0 ? { initializer: '{}' } : {}) },
      watchOptions: { name: 'options', type: imports.type(WATCH, 'WatchOptions'), hasQuestionToken: true },
    },
    where: `\`GET ${c.list.path}\``,
    since: sinceTag(c.list),
  };
  return [selectionInterface(c), watchFunction(context), listAllFunction(context), informerFunction(context)];
}

/** `…Selection`: the path parameters and selectors that pick the objects, shared by the three functions. */
function selectionInterface(c: CollectionFunctions): InterfaceDeclarationStructure {
  return {
    kind: StructureKind.Interface,
    name: c.params,
    isExported: true,
    docs: jsDocs(`Which ${c.kinds} \`${c.watch}\`, \`${c.listAll}\` and \`${c.informer}\` cover.`),
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
  };
}

function watchFunction(context: CollectionContext): FunctionDeclarationStructure {
  const { c, imports, kind, target, parameters, where, since } = context;
  return {
    kind: StructureKind.Function,
    isExported: true,
    name: c.watch,
    docs: jsDocs(
      `Watches ${c.kinds} (${where} with \`watch=true\`): an async iterable of typed events that lists first (or starts at \`options.resourceVersion\`), ` +
        'resumes from the last resourceVersion after a lost connection, a server-side timeout or an idle stream (capped exponential backoff with jitter), ' +
        'and answers a 410 Gone by re-listing and yielding a `RESYNC` with the complete state. An in-stream ERROR is never yielded as an event. ' +
        'Abort `options.signal` (or `break`) to stop.',
      [
        { tagName: 'throws', text: 'KubernetesApiError, WatchError or WatchDecodeError when the watch cannot go on' },
        ...since,
      ],
    ),
    parameters: [parameters.client, parameters.params, parameters.watchOptions],
    returnType: `AsyncIterable<${imports.type(WATCH, 'WatchNotification')}<${kind}>>`,
    statements: [`return ${imports.value(WATCH, 'watch')}<${kind}>(client, ${target}, options);`],
  };
}

function listAllFunction(context: CollectionContext): FunctionDeclarationStructure {
  const { c, imports, kind, target, parameters, where, since } = context;
  return {
    kind: StructureKind.Function,
    isExported: true,
    name: c.listAll,
    docs: jsDocs(
      `Lists every ${c.kind} (${where}), page by page with \`limit\`/\`continue\`. When a continue token expires (410), ` +
        "`options.onExpired` chooses: 'restart' (default; items may repeat) or 'continue' with the inconsistent token the server offers; `options.onExpiredContinue` says which happened.",
      since,
    ),
    parameters: [
      parameters.client,
      parameters.params,
      { name: 'options', type: imports.type(WATCH, 'ListAllOptions'), hasQuestionToken: true },
    ],
    returnType: `AsyncIterable<${kind}>`,
    statements: [`return ${imports.value(WATCH, 'listAll')}<${kind}>(client, ${target}, options);`],
  };
}

function informerFunction(context: CollectionContext): FunctionDeclarationStructure {
  const { c, imports, kind, target, parameters, where, since } = context;
  return {
    kind: StructureKind.Function,
    isExported: true,
    name: c.informer,
    docs: jsDocs(
      `An informer over ${c.kinds} (${where}): list + watch into a cache keyed by namespace/name, with onAdd/onUpdate/onDelete, ` +
        '`hasSynced()`, and a resync after 410 that diffs the complete state against the cache. It survives disconnects; only `stop()`, the signal or a non-retriable error end it.',
      since,
    ),
    parameters: [
      parameters.client,
      parameters.params,
      { name: 'handlers', type: `${imports.type(WATCH, 'InformerHandlers')}<${kind}>`, hasQuestionToken: true },
      parameters.watchOptions,
    ],
    returnType: `${imports.type(WATCH, 'Informer')}<${kind}>`,
    statements: [`return ${imports.value(WATCH, 'createInformer')}<${kind}>(client, ${target}, handlers, options);`],
  };
}
