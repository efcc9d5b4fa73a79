// src/index.ts of the client package: the newest release's entry point, re-exported.
import { StructureKind } from 'ts-morph';
import { PACKAGE_NAME } from '../config.js';
import type { ReleaseIr } from '../ir/types.js';
import { releaseModuleName } from '../shared/release-names.js';
import { generatedHeader } from './header.js';
import { printSourceFile } from './print-source-file.js';

/** Root entry point: the newest release. */
export function emitRootIndex(newest: ReleaseIr): string {
  return printSourceFile(generatedHeader(`newest release in spec/releases.json (${newest.release})`), [
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
  ]);
}
