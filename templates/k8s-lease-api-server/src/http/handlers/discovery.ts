// /version, health probes, discovery documents and the OpenAPI v2/v3 documents, with the caching headers
// kube-apiserver's handlers send.
import type { HashedDocument } from '../server-state.js';
import type { DiscoveryDocument } from '../route.js';
import type { RequestContext } from '../request-context.js';
import { clientCopyIsCurrent, httpDate, quoted, rfc1123 } from '../conditional.js';
import type { MediaRange } from '../negotiation.js';
import { chooseDiscoveryFormat, rangeMatches } from '../negotiation.js';
import { sendJsonText } from '../respond.js';
import { serverRelativeUrl } from '../../openapi/served-openapi.js';

export function serveVersion(ctx: RequestContext): void {
  sendJsonText(ctx.res, 200, ctx.state.discovery.version);
}

export function serveHealth(ctx: RequestContext): void {
  ctx.res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
  ctx.res.end('ok');
}

/**
 * Aggregated discovery answers with aggregated/etag.go ServeHTTPWithETag: ETag (one hash for v2 and v2beta1,
 * told apart by Vary: Accept), Cache-Control: public, and 304 when If-None-Match is exactly the quoted tag.
 * The legacy documents carry no ETag (discovery/root.go, group.go, version.go write them plainly).
 */
export function serveDiscovery(ctx: RequestContext, document: DiscoveryDocument): void {
  const docs = ctx.state.discovery;
  if ((document === 'api' || document === 'apis') && ctx.state.aggregatedDiscovery) {
    const format = chooseDiscoveryFormat(ctx.accept);
    if (format !== 'legacy') {
      const etag = quoted(docs.aggregatedHash[document]);
      const headers = { ETag: etag, Vary: 'Accept', 'Cache-Control': 'public' };
      if (ctx.req.headers['if-none-match'] === etag) {
        ctx.res.writeHead(304, headers);
        ctx.res.end();
        return;
      }
      sendJsonText(ctx.res, 200, docs.aggregated[format][document], {
        ...headers,
        'Content-Type': `application/json;g=apidiscovery.k8s.io;v=${format};as=APIGroupDiscoveryList`,
      });
      return;
    }
  }
  sendJsonText(ctx.res, 200, docs[document], { Vary: 'Accept' });
}

/** The Accept clauses, or `*` when there is no Accept header (handler.go's default). */
function clauses(ctx: RequestContext): MediaRange[] {
  return ctx.accept.length > 0 ? ctx.accept : [{ type: '*/*', q: 1, params: new Map() }];
}

/** http.ServeContent: Last-Modified, and 304 (keeping the ETag) when the client's copy is current. */
function serveContent(ctx: RequestContext, body: string | Buffer, etag: string, headers: Record<string, string>): void {
  const builtAt = ctx.state.openapi.builtAt;
  if (clientCopyIsCurrent(ctx.req, etag, builtAt)) {
    const { 'Content-Type': _type, ...kept } = headers;
    ctx.res.writeHead(304, { ...kept, ETag: etag, 'Cache-Control': headers['Cache-Control'] ?? 'no-cache, private' });
    ctx.res.end();
    return;
  }
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  ctx.res.writeHead(200, {
    'Cache-Control': 'no-cache, private',
    ...headers,
    ETag: etag,
    'Last-Modified': httpDate(builtAt),
    'Content-Length': bytes.length,
  });
  ctx.res.end(ctx.req.method === 'HEAD' ? undefined : bytes);
}

const V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
/** handler.go's accepted types: JSON, gnostic protobuf, and its deprecated '@' spelling (answered with the dotted one). */
const V2_TYPES: [string, 'json' | 'protobuf'][] = [
  ['application/json', 'json'],
  ['application/com.github.proto-openapi.spec.v2@v1.0+protobuf', 'protobuf'],
  [V2_PROTOBUF, 'protobuf'],
];

/** kube-openapi pkg/handler/handler.go RegisterOpenAPIVersionedService: the first Accept clause we can answer decides; none is 406. */
export function serveOpenApiV2(ctx: RequestContext): void {
  const { openapi } = ctx.state;
  ctx.res.setHeader('Vary', 'Accept');
  for (const clause of clauses(ctx)) {
    const found = V2_TYPES.find(([type]) => rangeMatches(clause, type));
    if (found === undefined) continue;
    const etag = quoted(openapi.v2Json.hash);
    if (found[1] === 'json')
      return serveContent(ctx, openapi.v2Json.body, etag, { 'Content-Type': 'application/json' });
    return serveContent(ctx, openapi.v2Protobuf, etag, { 'Content-Type': V2_PROTOBUF });
  }
  ctx.res.writeHead(406);
  ctx.res.end();
}

/** handler3.go HandleDiscovery: the index of group versions, with its ETag. */
export function serveOpenApiIndex(ctx: RequestContext): void {
  const { index } = ctx.state.openapi;
  serveContent(ctx, index.body, quoted(index.hash), { 'Content-Type': 'application/json' });
}

/**
 * handler3.go HandleGroupVersion: a group version's document. Asked for by a hash that is not the current one,
 * it answers 301 to the current hash's URL; asked for by the current hash, it may be cached for good
 * (Cache-Control: public, immutable; Expires a year ahead); without a hash it is served with its ETag.
 * False when the version is not served.
 */
export function serveOpenApiGroupVersion(ctx: RequestContext, version: string): boolean {
  const served: HashedDocument | undefined = ctx.state.openapi.groupVersions[version];
  if (served === undefined) return false;
  ctx.res.setHeader('Vary', 'Accept');
  // Only JSON is served; handler3 would also answer the v3 protobuf, which kubectl does not ask for.
  if (!clauses(ctx).some((clause) => rangeMatches(clause, 'application/json'))) {
    ctx.res.writeHead(406);
    ctx.res.end();
    return true;
  }
  const etag = quoted(served.hash);
  const hash = ctx.url.searchParams.get('hash');
  if (hash !== null && hash !== '') {
    if (hash !== served.hash) {
      // http.Redirect after the Content-Type was set: no HTML body, the JSON type stays.
      ctx.res.writeHead(301, {
        'Content-Type': 'application/json',
        ETag: etag,
        Location: serverRelativeUrl(version, served.hash),
        'Cache-Control': 'no-cache, private',
        'Content-Length': 0,
      });
      ctx.res.end();
      return true;
    }
    const expires = new Date(Date.now());
    expires.setUTCFullYear(expires.getUTCFullYear() + 1);
    serveContent(ctx, served.body, etag, {
      'Content-Type': 'application/json',
      'Cache-Control': 'public, immutable',
      Expires: rfc1123(expires),
    });
    return true;
  }
  serveContent(ctx, served.body, etag, { 'Content-Type': 'application/json' });
  return true;
}
