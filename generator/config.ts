import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

/** The project root: generator/ sits directly below it. */
export const PROJECT_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

export const PACKAGE_NAME = 'k8s-lease-client';
export const PACKAGE_VERSION = '0.1.0';

export const DEFAULT_SPEC_DIR = join(PROJECT_ROOT, 'spec');
export const DEFAULT_OUT_DIR = join(PROJECT_ROOT, 'generated');
export const TEMPLATES_DIR = join(PROJECT_ROOT, 'templates');
