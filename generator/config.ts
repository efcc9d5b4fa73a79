import { fileURLToPath } from 'node:url';
import { dirname, join, relative } from 'node:path';
import type { GenerationTarget } from './shared/target.js';

/** The project root: generator/ sits directly below it. */
export const PROJECT_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/**
 * The client: the package the generator emits the API into (beside its hand-written runtime in
 * templates/k8s-lease-client/src/runtime/). Every other folder of templates/ is a package of hand-written code.
 */
export const PACKAGE_NAME = 'k8s-lease-client';

/**
 * What the shipped packages cover: coordination.k8s.io, every version and kind each release serves (Lease in v1,
 * at a release's root; LeaseCandidate in the alphas and betas). A Lease requires no field, so its README examples
 * are written here rather than derived from its schema.
 */
export const LEASE_TARGET: GenerationTarget = {
  group: 'coordination.k8s.io',
  rootVersion: 'v1',
  examples: new Map([
    [
      'Lease',
      {
        create: "spec: { holderIdentity: 'me', leaseDurationSeconds: 15 }",
        mergePatch: "{ spec: { holderIdentity: 'me' } }",
      },
    ],
  ]),
};

/**
 * Where the project lives: the packages' `repository`, `homepage` and `bugs` point here. The project has no
 * public home yet, so this is a placeholder to set before the first publish.
 */
export const REPOSITORY_URL = 'https://github.com/lease-api-generator/lease-api-generator';

/** The Apache-2.0 text every package ships as LICENSE (its package.json says `"license": "Apache-2.0"`). */
export const LICENSE_FILE = join(PROJECT_ROOT, 'LICENSE');
export const PACKAGE_VERSION = '0.1.0';

/** `repository`, `homepage` and `bugs` of a generated package: it lives in generated/<name> of this repository. */
export function packageLinks(name: string): {
  repositoryUrl: string;
  directory: string;
  homepage: string;
  bugs: string;
} {
  return {
    repositoryUrl: `git+${REPOSITORY_URL}.git`,
    directory: `generated/${name}`,
    homepage: `${REPOSITORY_URL}/tree/main/generated/${name}#readme`,
    bugs: `${REPOSITORY_URL}/issues`,
  };
}

export const DEFAULT_SPEC_DIR = join(PROJECT_ROOT, 'spec');
export const DEFAULT_OUT_DIR = join(PROJECT_ROOT, 'generated');
/** The golden tables test/generator/ir/golden-tables.test.ts checks, one pair per release of the project's own spec/. */
export const DEFAULT_GOLDEN_DIR = join(PROJECT_ROOT, 'test', 'golden');
/** One folder per shipped package, named after it: its skeletons and, under src/, its hand-written code. */
export const TEMPLATES_DIR = join(PROJECT_ROOT, 'templates');

/** A path as errors and headers show it: relative to the project when inside it. */
export function displayPath(file: string): string {
  const rel = relative(PROJECT_ROOT, file);
  return rel.startsWith('..') ? file : rel;
}
