// The cells of the client README's tables: per release, what it adds and which clusters it serves; per operation,
// its summary, an example call and the names exported beside it.
import type { ApiChange, ReleaseDiff } from '../diff/types.js';
import { changedMediaTypes, isUnusedMediaTypeChange, userFacingChanges } from '../diff/render-changelog.js';
import { clientOperations, queryParameters } from '../ir/client-surface.js';
import type { GroupVersionIr, OperationIr } from '../ir/types.js';
import { markdownCell } from '../shared/markdown.js';
import type { KindExamples } from '../shared/target.js';
import { operationCompanionNames } from './emit-operations.js';
import { requiredFields } from './example-values.js';

/** One table cell: what a release adds or breaks relative to the one before it, for users of the exported functions. */
export function whatItAdds(release: string, diffs: readonly ReleaseDiff[], unexported: ReadonlySet<string>): string {
  const diff = diffs.find((d) => d.to === release);
  if (diff === undefined) return 'oldest supported release';
  const changes = userFacingChanges(diff, unexported);
  const mark = (c: ApiChange): string => `${c.class === 'breaking' ? '**breaking** ' : ''}\`${c.subject}\``;
  const notable = changes.filter((c) => c.class !== 'docs-only' && c.kind !== 'content-types-changed').map(mark);
  // Media types change on every operation at once (e.g. CBOR in 1.33): one phrase, not one entry per response.
  const media = changes.filter((c) => c.kind === 'content-types-changed');
  const unused = media.every(isUnusedMediaTypeChange) ? ' (not used by this JSON client)' : '';
  const mediaTypes = [...new Set(media.flatMap(changedMediaTypes))].sort();
  const mediaPhrase =
    media.length > 0
      ? `media types ${mediaTypes.map((t) => `\`${t}\``).join(', ')} on ${media.length} requests/responses${unused}${media.some((c) => c.class === 'breaking') ? ' (**breaking**: some removed)' : ''}`
      : '';
  const docs = changes.filter((c) => c.class === 'docs-only').length;
  return markdownCell(
    [...notable, mediaPhrase, docs > 0 ? `${docs} description changes` : ''].filter(Boolean).join(', ') ||
      'no API changes',
  );
}

/**
 * The cluster minor versions a release's subpath serves: its own, and those up to the next supported release
 * that have none (1.32 → the 1.31 subpath: coordination.k8s.io/v1 only grows, so an older API is safe on a newer
 * cluster, while a newer subpath could send fields the cluster does not know).
 */
export function clusterMinors(release: string, next: string | undefined): string {
  const [major, minor] = release.split('.').map(Number) as [number, number];
  const until = next === undefined ? minor : Number(next.split('.')[1]) - 1;
  return until > minor ? `${major}.${minor}.x – ${major}.${until}.x` : `${major}.${minor}.x`;
}

function summary(operation: OperationIr): string {
  const text = operation.description.split('\n')[0] ?? '';
  return `${text.charAt(0).toUpperCase() + text.slice(1)}.`;
}

/** What an example call of one operation is written with: the kind it acts on and its bodies. */
interface ExampleSubject {
  /** `'my-priority-class'`: the name an example gives the object. */
  readonly objectName: string;
  /** `priorityClass`: the variable an example holds an object of the kind in. */
  readonly variable: string;
  /** The members of a create body besides `metadata`. */
  readonly createFields: string;
  readonly mergePatch: string;
}

/**
 * The kind an operation acts on, as its resource names it. A resource whose kind the spec does not name gets the
 * neutral word `Object` (`'my-object'`); the discovery operation's example names no object at all.
 */
function exampleSubject(
  operation: OperationIr,
  gv: GroupVersionIr,
  examples: ReadonlyMap<string, KindExamples>,
): ExampleSubject {
  const kind = gv.resources.find((r) => r.plural === operation.resource)?.kind ?? 'Object';
  const words = kind.split(/(?<=[a-z0-9])(?=[A-Z])/).map((w) => w.toLowerCase());
  const given = examples.get(kind);
  return {
    objectName: `'my-${words.join('-')}'`,
    variable: words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join(''),
    createFields:
      given?.create ??
      requiredFields(
        gv.models.find((m) => m.name === kind),
        gv.models,
      ),
    mergePatch: given?.mergePatch ?? "{ metadata: { labels: { app: 'web' } } }",
  };
}

function example(operation: OperationIr, subject: ExampleSubject): string {
  const target = operation.pathParameters
    .map((p) => `${p.name}: ${p.name === 'namespace' ? "'default'" : subject.objectName}`)
    .join(', ');
  const args = (extra: string): string => `{ ${[target, extra].filter(Boolean).join(', ')} }`;
  const call = (params: string): string =>
    `const result = await ${operation.name}(client${params === '' ? '' : `, ${params}`});`;
  const object = subject.variable;
  switch (operation.kind) {
    case 'getAPIResources':
      return call('');
    case 'read':
      return call(args(''));
    case 'list':
    case 'listForAllNamespaces':
      return [
        call(args("labelSelector: 'app=web', limit: 100")),
        `for (const ${object} of result.items) console.log(${object}.metadata?.name);`,
      ].join('\n');
    case 'create':
      return call(
        args(
          `body: { ${[`metadata: { name: ${subject.objectName} }`, subject.createFields].filter(Boolean).join(', ')} }`,
        ),
      );
    case 'replace':
      return call(args(`body: ${object}`));
    case 'patch':
      return call(args(`patch: { type: 'merge', body: ${subject.mergePatch} }`));
    case 'delete':
      return call(args(`body: { preconditions: { resourceVersion: ${object}.metadata?.resourceVersion } }`));
    case 'deleteCollection':
      return call(args("labelSelector: 'app=web'"));
    default:
      return call(args(''));
  }
}

/** A row of the operations table: the function, its request, its query parameters, a summary and an example. */
export interface OperationRow {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly query: readonly string[];
  readonly summary: string;
  readonly example: string;
  readonly companions: readonly string[];
}

/**
 * The operations table: one row per function the client exports for the group version (the newest release's root
 * version: the Lease API), with example calls written for the kind each acts on; `examples` gives a kind's bodies
 * where its schema's required fields would show nothing useful (a Lease requires none).
 */
export function operationRows(
  gv: GroupVersionIr,
  examples: ReadonlyMap<string, KindExamples> = new Map(),
): OperationRow[] {
  return clientOperations(gv).map((o) => ({
    name: o.name,
    method: o.method,
    path: markdownCell(o.path),
    query: queryParameters(o).map((p) => markdownCell(p.name)),
    summary: summary(o),
    example: example(o, exampleSubject(o, gv, examples)),
    companions: operationCompanionNames(o),
  }));
}
