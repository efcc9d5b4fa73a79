// The OpenAPI documents tests compare against: upstream kube-apiserver's swagger.json per release
// (test/fixtures/upstream) and the normalised OpenAPI 3 document the generator packages (spec/openapi).
import { readFileSync } from 'node:fs';
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';

const read = (path: string): JsonObject => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));

/** Upstream /openapi/v2 (swagger.json) of a Kubernetes release. */
export const upstream = (release: string): JsonObject =>
  read(`../../fixtures/upstream/kubernetes/v${release}/swagger.json`);

/** The packaged OpenAPI 3 document of a release. */
export const packaged = (release: string): JsonObject => read(`../../../spec/openapi/v${release}.json`);
