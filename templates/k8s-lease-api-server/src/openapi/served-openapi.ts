// The OpenAPI documents the server serves, built once at start: /openapi/v3 (index and one document per
// served group version, each addressed by its hash as kube-openapi handler3 does), and /openapi/v2 derived
// from the same documents (openapi-v2.ts).
import { documentHash } from '../http/conditional.js';
import type { HashedDocument, OpenApiDocuments } from '../http/server-state.js';
import type { JsonObject } from '../json.js';
import { GROUP, VERSION } from '../lease-meta.js';
import type { CandidateVersion } from '../candidates/candidate-resource.js';
import { candidateOpenApiDocument } from '../candidates/candidate-openapi.js';
import type { ServedDocument } from './openapi-v2.js';
import { openApiV2Document } from './openapi-v2.js';
import { openApiV2Protobuf } from './openapi-v2-protobuf.js';

const hashed = (body: string): HashedDocument => ({ body, hash: documentHash(body) });

/** handler3.go constructServerRelativeURL: path.Join("/openapi/v3", gv) with the hash as its only query parameter. */
export function serverRelativeUrl(version: string, hash: string): string {
  return `/openapi/v3/apis/${GROUP}/${version}?hash=${hash}`;
}

/** doc: the Lease's (v1) document; candidateVersions: the LeaseCandidate versions served, whose documents derive from it. */
export function buildOpenApiDocuments(
  doc: JsonObject,
  release: string,
  candidateVersions: readonly CandidateVersion[],
): OpenApiDocuments {
  const served: ServedDocument[] = [{ version: VERSION, document: doc }];
  for (const version of candidateVersions) {
    const derived = candidateOpenApiDocument(doc, version);
    if (derived !== undefined) served.push({ version, document: derived });
  }
  const groupVersions: Record<string, HashedDocument> = {};
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const { version, document } of served) {
    const text = hashed(JSON.stringify(document));
    groupVersions[version] = text;
    paths[`apis/${GROUP}/${version}`] = { serverRelativeURL: serverRelativeUrl(version, text.hash) };
  }
  const v2 = openApiV2Document(release, served);
  return {
    index: hashed(JSON.stringify({ paths })),
    groupVersions,
    v2Json: hashed(JSON.stringify(v2)),
    v2Protobuf: openApiV2Protobuf(v2),
    builtAt: new Date(),
  };
}
