import { fileURLToPath } from 'node:url';
import { dirname, join, relative } from 'node:path';

/** The project root: generator/ sits directly below it. */
export const PROJECT_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

export const PACKAGE_NAME = 'k8s-lease-client';

/**
 * Where the project lives: the packages' `repository`, `homepage` and `bugs` point here. The project has no
 * public home yet, so this is a placeholder to set before the first publish.
 */
export const REPOSITORY_URL = 'https://github.com/lease-api-generator/lease-api-generator';

/** The Apache-2.0 text every package ships as LICENSE (its package.json says `"license": "Apache-2.0"`). */
export const LICENSE_FILE = join(PROJECT_ROOT, 'LICENSE');
export const PACKAGE_VERSION = '0.1.0';

/** A package of hand-written code generated beside the client, depending on it. */
export interface HandWrittenPackage {
  readonly name: string;
  /** The template folder copied as its whole src/. */
  readonly source: string;
  /** The template folder of its package.json, README.md and tsconfig.json skeletons. */
  readonly skeleton: string;
  /**
   * What it depends on besides the client. Their versions come from this project's own package.json
   * (the versions the tests run against), as caret ranges.
   */
  readonly dependencies: readonly string[];
  /** Ships every release's normalised OpenAPI document in openapi/ (the server serves them). */
  readonly shipsOpenApi: boolean;
}

/** The Node-only Lease API server package. */
export const SERVER_PACKAGE: HandWrittenPackage = {
  name: 'k8s-lease-api-server',
  source: 'server',
  skeleton: 'server-package',
  dependencies: ['@peculiar/x509', 'fast-json-patch', 'protobufjs', 're2js', 'reflect-metadata', 'yaml'],
  shipsOpenApi: true,
};

/** Node-only cluster access for the client: kubeconfig, in-cluster config, TLS through undici, exec plugins. */
export const NODE_PACKAGE: HandWrittenPackage = {
  name: 'k8s-lease-client-node',
  source: 'node',
  skeleton: 'node-package',
  dependencies: ['undici', 'yaml'],
  shipsOpenApi: false,
};

export const HAND_WRITTEN_PACKAGES: readonly HandWrittenPackage[] = [SERVER_PACKAGE, NODE_PACKAGE];

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
/** The golden tables test/ir/golden-tables.test.ts checks, one pair per release of the project's own spec/. */
export const DEFAULT_GOLDEN_DIR = join(PROJECT_ROOT, 'test', 'golden');
export const TEMPLATES_DIR = join(PROJECT_ROOT, 'templates');

/** A path as errors and headers show it: relative to the project when inside it. */
export function displayPath(file: string): string {
  const rel = relative(PROJECT_ROOT, file);
  return rel.startsWith('..') ? file : rel;
}
