// Copied by lease-api-generator from templates/server/http/handlers/discovery.ts. DO NOT EDIT: edit that file and run `npm run generate`.
// /version, health probes, discovery documents and the OpenAPI v3 index/document.
import { OPENAPI_V2_PROTOBUF_ACCEPT, OPENAPI_V2_PROTOBUF_CONTENT_TYPE } from '../../openapi/openapi-v2.js';
import type { DiscoveryDocument } from '../route.js';
import type { RequestContext } from '../request-context.js';
import { chooseDiscoveryFormat } from '../negotiation.js';
import { sendJsonText } from '../respond.js';

export function serveVersion(ctx: RequestContext): void {
  sendJsonText(ctx.res, 200, ctx.state.discovery.version);
}

export function serveHealth(ctx: RequestContext): void {
  ctx.res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
  ctx.res.end('ok');
}

export function serveDiscovery(ctx: RequestContext, document: DiscoveryDocument): void {
  const docs = ctx.state.discovery;
  if ((document === 'api' || document === 'apis') && ctx.state.aggregatedDiscovery) {
    const format = chooseDiscoveryFormat(ctx.accept);
    if (format !== 'legacy') {
      const body = docs.aggregated[format][document];
      sendJsonText(ctx.res, 200, body, {
        'Content-Type': `application/json;g=apidiscovery.k8s.io;v=${format};as=APIGroupDiscoveryList`,
        Vary: 'Accept',
      });
      return;
    }
  }
  sendJsonText(ctx.res, 200, docs[document], { Vary: 'Accept' });
}

export function serveOpenApiV2(ctx: RequestContext): void {
  const { openapi } = ctx.state;
  const accept = ctx.req.headers.accept ?? '';
  if (OPENAPI_V2_PROTOBUF_ACCEPT.some((type) => accept.includes(type))) {
    ctx.res.writeHead(200, {
      'Content-Type': OPENAPI_V2_PROTOBUF_CONTENT_TYPE,
      'Content-Length': openapi.v2Protobuf.length,
    });
    ctx.res.end(openapi.v2Protobuf);
    return;
  }
  sendJsonText(ctx.res, 200, openapi.v2Json);
}

export function serveOpenApi(ctx: RequestContext, which: 'index' | 'document'): void {
  const { openapi } = ctx.state;
  if (which === 'index') {
    sendJsonText(ctx.res, 200, openapi.index);
    return;
  }
  sendOpenApiDocument(ctx, openapi.document, openapi.hash);
}

/** A group version's document with kube-apiserver's caching: ETag, 304, immutable when asked by its hash. */
function sendOpenApiDocument(ctx: RequestContext, document: string, hash: string): void {
  const etag = `"${hash}"`;
  if (ctx.req.headers['if-none-match'] === etag) {
    ctx.res.writeHead(304, { ETag: etag });
    ctx.res.end();
    return;
  }
  const cache = ctx.url.searchParams.get('hash') === hash ? 'public, immutable' : 'no-cache, private';
  sendJsonText(ctx.res, 200, document, { ETag: etag, 'Cache-Control': cache });
}

/** The document of another served version of the group (LeaseCandidate's); false when that version is not served. */
export function serveOpenApiGroupVersion(ctx: RequestContext, version: string): boolean {
  const served = ctx.state.openapi.groupVersions[version];
  if (served === undefined) return false;
  sendOpenApiDocument(ctx, served.document, served.hash);
  return true;
}
