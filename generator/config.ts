import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

/** The project root: generator/ sits directly below it. */
export const PROJECT_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

export const PACKAGE_NAME = 'k8s-lease-client';
export const PACKAGE_VERSION = '0.1.0';

/** The Node-only Lease API server package, generated beside the client and depending on it. */
export const SERVER_PACKAGE_NAME = 'k8s-lease-api-server';
/**
 * What the server package depends on besides the client. Their versions come from this project's own
 * package.json (the versions the tests run against), as caret ranges.
 */
export const SERVER_DEPENDENCIES = ['@peculiar/x509', 'fast-json-patch', 'protobufjs', 'reflect-metadata', 'yaml'] as const;

export const DEFAULT_SPEC_DIR = join(PROJECT_ROOT, 'spec');
export const DEFAULT_OUT_DIR = join(PROJECT_ROOT, 'generated');
export const TEMPLATES_DIR = join(PROJECT_ROOT, 'templates');
