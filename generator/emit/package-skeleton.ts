// package.json and README.md of each shipped package, rendered from the handlebars skeletons in its folder of
// templates/, and the two files every package gets as they are: tsconfig.json (templates/package-tsconfig.json,
// beside the package folders) and LICENSE.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { LICENSE_FILE, packageLinks } from '../config.js';
import type { ReleaseDiff } from '../diff/types.js';
import { rootGroupVersionIr } from '../ir/build-release-ir.js';
import { unexportedOperations } from '../ir/client-surface.js';
import type { ReleaseIr } from '../ir/types.js';
import { groupVersionNamespace } from '../shared/group-version.js';
import type { KindExamples } from '../shared/target.js';
import { releaseModuleName, releaseSubpath } from '../shared/release-names.js';
import { clusterMinors, operationRows, whatItAdds } from './readme-tables.js';

export interface PackageInfo {
  readonly name: string;
  readonly version: string;
  /** The package's folder in templates/, holding its skeletons. */
  readonly dir: string;
  /** README example bodies by kind (the generation target's). */
  readonly examples?: ReadonlyMap<string, KindExamples>;
}

/** The client package's skeletons: its releases (subpath exports, README tables) and the newest release's operations. */
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
    operations: operationRows(rootGroupVersionIr(newest), info.examples),
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

/** The tsconfig.json every package is type-checked with (`npm run typecheck`), one file for all, in templates/. */
const PACKAGE_TSCONFIG = 'package-tsconfig.json';

/**
 * `npm pack` refuses a package whose dist/ was never built (a fresh clone before `npm run generate`): such a tarball
 * installs, then fails every import, and its command falls through to whatever the public registry has of that name.
 */
export function prepackCheck(name: string): string {
  const message = `${name}: dist/ is not built, so there is nothing to pack: run npm run generate in the repository first`;
  return `node -e "require('node:fs').existsSync('dist/index.js')||(console.error(${JSON.stringify(message).replace(/"/g, "'")}),process.exit(1))"`;
}

function renderSkeleton(dir: string, data: { name: string }): Map<string, string> {
  const handlebars = Handlebars.create();
  const render = (template: string): string =>
    handlebars.compile(readFileSync(join(dir, template), 'utf8'), { noEscape: true })(data);
  const manifest = {
    ...(JSON.parse(render('package.json.hbs')) as object),
    scripts: { prepack: prepackCheck(data.name) },
  };
  return new Map([
    ['package.json', `${JSON.stringify(manifest, null, 2)}\n`],
    ['README.md', render('README.md.hbs')],
    ['tsconfig.json', readFileSync(join(dir, '..', PACKAGE_TSCONFIG), 'utf8')],
    ['LICENSE', readFileSync(LICENSE_FILE, 'utf8')],
  ]);
}
