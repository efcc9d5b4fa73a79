// The OpenAPI documents served, as kube-openapi's handler3 addresses them: /openapi/v3 lists each group version
// under apis/<group>/<version> with a serverRelativeURL of path.Join("/openapi/v3", gv) and ?hash= the document's
// ETag (constructServerRelativeURL, computeETag), plus /openapi/v2 in JSON and protobuf built from the same documents.
import { describe, expect, it } from 'vitest';
import { documentHash } from '../../../templates/k8s-lease-api-server/src/http/conditional.js';
import { fallbackOpenApi } from '../../../templates/k8s-lease-api-server/src/openapi/fallback-openapi.js';
import {
  buildOpenApiDocuments,
  serverRelativeUrl,
} from '../../../templates/k8s-lease-api-server/src/openapi/served-openapi.js';

describe('serverRelativeUrl', () => {
  it('joins the group version under /openapi/v3 with the hash as its query', () => {
    expect(serverRelativeUrl('v1', 'ABC')).toBe('/openapi/v3/apis/coordination.k8s.io/v1?hash=ABC');
  });
});

describe('buildOpenApiDocuments', () => {
  it('indexes one hashed document per served group version and derives /openapi/v2', () => {
    const docs = buildOpenApiDocuments(fallbackOpenApi(), '1.33.0', ['v1beta1']);
    const v1 = docs.groupVersions['v1'];
    const v1beta1 = docs.groupVersions['v1beta1'];
    expect(v1?.hash).toBe(documentHash(v1?.body ?? ''));
    expect(JSON.parse(docs.index.body)).toEqual({
      paths: {
        'apis/coordination.k8s.io/v1': { serverRelativeURL: serverRelativeUrl('v1', v1?.hash ?? '') },
        'apis/coordination.k8s.io/v1beta1': { serverRelativeURL: serverRelativeUrl('v1beta1', v1beta1?.hash ?? '') },
      },
    });
    expect(JSON.parse(v1?.body ?? '{}')).toEqual(fallbackOpenApi());
    expect(JSON.parse(docs.v2Json.body).swagger).toBe('2.0');
    expect(docs.v2Json.hash).toBe(documentHash(docs.v2Json.body));
    expect(docs.v2Protobuf.length).toBeGreaterThan(0);
  });

  it('serves only the Lease document without candidate versions', () => {
    expect(Object.keys(buildOpenApiDocuments(fallbackOpenApi(), '1.30.0', []).groupVersions)).toEqual(['v1']);
  });
});
