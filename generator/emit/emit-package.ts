import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { StructureKind, type Project } from 'ts-morph';
import type { OperationIr, ReleaseIr } from '../ir/types.js';
import type { ApiChange, ReleaseDiff } from '../diff/types.js';
import { releaseModuleName, releaseSubpath } from '../shared/release-names.js';
import { groupVersionNamespace } from '../shared/group-version.js';
import { leaseGroupVersion } from '../ir/build-release-ir.js';
import { clientOperations, queryParameters, unexportedOperations } from '../ir/client-surface.js';
import { operationCompanionNames } from './emit-operations.js';
import { markdownCell } from '../shared/markdown.js';
import { changedMediaTypes, isUnusedMediaTypeChange, userFacingChanges } from '../diff/render-changelog.js';
import { generatedHeader } from './header.js';
import { printSourceFile } from './ts-project.js';
import { LICENSE_FILE, PACKAGE_NAME, packageLinks } from '../config.js';

export interface PackageInfo {
  readonly name: string;
  readonly version: string;
  /** The package's folder in templates/, holding its skeletons. */
  readonly dir: string;
}

/** Root entry point: the newest release. */
export function emitRootIndex(project: Project, newest: ReleaseIr): string {
  return printSourceFile(
    project,
    '/src/index.ts',
    generatedHeader(`newest release in spec/releases.json (${newest.release})`),
    [
      // `@module` names the entry point in the API reference (TypeDoc) after the package rather than the file.
      [
        '/**',
        ` * The Lease API (coordination.k8s.io/v1) of the newest supported release, Kubernetes ${newest.release}: models,`,
        ' * path builders, operations and watches, the runtime (`createClient`, errors, watches, leader election), and',
        ` * that release's other coordination.k8s.io versions as namespaces. Older releases: \`${PACKAGE_NAME}/v1.<minor>\`.`,
        ' *',
        ` * @module ${PACKAGE_NAME}`,
        ' */',
      ].join('\n'),
      { kind: StructureKind.ExportDeclaration, moduleSpecifier: `./${releaseModuleName(newest.release)}/index.js` },
    ],
  ).text;
}

/** One table cell: what a release adds or breaks relative to the one before it, for users of the exported functions. */
function whatItAdds(release: string, diffs: readonly ReleaseDiff[], unexported: ReadonlySet<string>): string {
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
function clusterMinors(release: string, next: string | undefined): string {
  const [major, minor] = release.split('.').map(Number) as [number, number];
  const until = next === undefined ? minor : Number(next.split('.')[1]) - 1;
  return until > minor ? `${major}.${minor}.x – ${major}.${until}.x` : `${major}.${minor}.x`;
}

function summary(operation: OperationIr): string {
  const text = operation.description.split('\n')[0] ?? '';
  return `${text.charAt(0).toUpperCase() + text.slice(1)}.`;
}

function example(operation: OperationIr): string {
  const target = operation.pathParameters
    .map((p) => `${p.name}: ${p.name === 'namespace' ? "'default'" : "'my-lease'"}`)
    .join(', ');
  const args = (extra: string): string => `{ ${[target, extra].filter(Boolean).join(', ')} }`;
  const call = (params: string): string =>
    `const result = await ${operation.name}(client${params === '' ? '' : `, ${params}`});`;
  switch (operation.kind) {
    case 'getAPIResources':
      return call('');
    case 'read':
      return call(args(''));
    case 'list':
    case 'listForAllNamespaces':
      return [
        call(args("labelSelector: 'app=web', limit: 100")),
        'for (const lease of result.items) console.log(lease.metadata?.name);',
      ].join('\n');
    case 'create':
      return call(
        args("body: { metadata: { name: 'my-lease' }, spec: { holderIdentity: 'me', leaseDurationSeconds: 15 } }"),
      );
    case 'replace':
      return call(args('body: lease'));
    case 'patch':
      return call(args("patch: { type: 'merge', body: { spec: { holderIdentity: 'me' } } }"));
    case 'delete':
      return call(args('body: { preconditions: { resourceVersion: lease.metadata?.resourceVersion } }'));
    case 'deleteCollection':
      return call(args("labelSelector: 'app=web'"));
    default:
      return call(args(''));
  }
}

export function emitPackageSkeleton(
  info: PackageInfo,
  releases: readonly ReleaseIr[],
  diffs: readonly ReleaseDiff[],
): Map<string, string> {
  const newest = releases[releases.length - 1]!;
  const unexported = unexportedOperations(releases);
  const data = {
    name: info.name,
    version: info.version,
    links: packageLinks(info.name),
    releaseRange: `${releases[0]!.release} – ${newest.release}`,
    newest: { release: newest.release },
    releases: releases.map((r, index) => ({
      release: r.release,
      minor: r.release.split('.').slice(0, 2).join('.'),
      clusters: clusterMinors(r.release, releases[index + 1]?.release),
      subpath: releaseSubpath(r.release),
      subpathName: releaseSubpath(r.release).slice(2),
      module: releaseModuleName(r.release),
      adds: whatItAdds(r.release, diffs, unexported),
      // The group's other versions: a namespace of the release entry and a subpath of their own.
      groupVersions: r.groupVersions.flatMap((gv) => {
        const namespace = groupVersionNamespace(gv);
        return namespace === undefined
          ? []
          : [
              {
                namespace,
                apiVersion: `${gv.group}/${gv.version}`,
                subpath: `${releaseSubpath(r.release)}/${namespace}`,
                subpathName: `${releaseSubpath(r.release).slice(2)}/${namespace}`,
                module: `${releaseModuleName(r.release)}/${namespace}`,
              },
            ];
      }),
      servedVersions: r.groupVersions.map((gv) => `\`${gv.version}\``).join(', '),
    })),
    operations: clientOperations(leaseGroupVersion(newest)).map((o) => ({
      name: o.name,
      method: o.method,
      path: markdownCell(o.path),
      query: queryParameters(o).map((p) => markdownCell(p.name)),
      summary: summary(o),
      example: example(o),
      companions: operationCompanionNames(o),
    })),
  };
  return renderSkeleton(info.dir, data);
}

export interface HandWrittenPackageInfo {
  readonly name: string;
  readonly version: string;
  readonly clientName: string;
  /** The package's folder in templates/, holding its skeletons. */
  readonly dir: string;
  /** Runtime dependencies with their version ranges, e.g. `yaml` → `^2.9.1`. */
  readonly dependencies: ReadonlyMap<string, string>;
}

/** package.json, README.md and tsconfig.json of a package of hand-written code (the server, the Node config). */
export function emitHandWrittenPackageSkeleton(
  info: HandWrittenPackageInfo,
  releases: readonly ReleaseIr[],
): Map<string, string> {
  const newest = releases[releases.length - 1]!;
  const data = {
    name: info.name,
    version: info.version,
    links: packageLinks(info.name),
    clientName: info.clientName,
    releaseRange: `${releases[0]!.release} – ${newest.release}`,
    newest: { release: newest.release },
    releases: releases.map((r) => ({ release: r.release, minor: r.release.split('.').slice(0, 2).join('.') })),
    dependencies: [...info.dependencies]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, range], index, all) => ({ name, range, last: index === all.length - 1 })),
  };
  return renderSkeleton(info.dir, data);
}

function renderSkeleton(dir: string, data: object): Map<string, string> {
  const handlebars = Handlebars.create();
  const render = (template: string): string =>
    handlebars.compile(readFileSync(join(dir, template), 'utf8'), { noEscape: true })(data);
  return new Map([
    ['package.json', `${JSON.stringify(JSON.parse(render('package.json.hbs')), null, 2)}\n`],
    ['README.md', render('README.md.hbs')],
    ['tsconfig.json', render('tsconfig.json.hbs')],
    ['LICENSE', readFileSync(LICENSE_FILE, 'utf8')],
  ]);
}
