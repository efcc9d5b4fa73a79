// go-restful's route selection before any handler (github.com/emicklei/go-restful/v3 jsr311.go
// RouterJSR311.detectRoute, route.go Route.matchesContentType / matchesAccept) over the routes
// k8s.io/apiserver/pkg/endpoints/installer.go registers for a Lease path, with the Status the apiserver's
// serviceErrorHandler makes of a refusal (apimachinery errors.go NewGenericServerResponse: empty details).
import { describe, expect, it } from 'vitest';
import type { ResourcePath } from '../../../templates/k8s-lease-api-server/src/http/route-selection.js';
import { selectRoute } from '../../../templates/k8s-lease-api-server/src/http/route-selection.js';

const ITEM: ResourcePath = { kind: 'item', namespaced: true, watchPath: false };
const COLLECTION: ResourcePath = { kind: 'collection', namespaced: true, watchPath: false };
const ALL_NAMESPACES: ResourcePath = { kind: 'collection', namespaced: false, watchPath: false };
const WATCH_PATH: ResourcePath = { kind: 'item', namespaced: true, watchPath: true };
const MEDIA = 'application/json, application/yaml, application/vnd.kubernetes.protobuf';
const STREAMS = 'application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch';

const notAcceptable = (available: string) => ({
  code: 406,
  reason: 'NotAcceptable',
  message: `406: Not Acceptable\n\nAvailable representations: ${available}`,
  details: {},
});

describe('selectRoute', () => {
  it.each<[string, ResourcePath, string]>([
    ['POST on an object', ITEM, 'POST'],
    ['PUT on a collection', COLLECTION, 'PUT'],
    ['POST on the cluster-wide list', ALL_NAMESPACES, 'POST'],
    ['DELETE on the cluster-wide list', ALL_NAMESPACES, 'DELETE'],
    ['PUT under /watch/', WATCH_PATH, 'PUT'],
    ['HEAD (no route has it)', ITEM, 'HEAD'],
  ])('refuses %s with the 405 whose details are empty', (_name, path, method) => {
    expect(selectRoute(path, method, '', '')).toEqual({
      code: 405,
      reason: 'MethodNotAllowed',
      message: 'the server does not allow this method on the requested resource',
      details: {},
    });
  });

  it.each(['application/json', 'text/plain', '', 'application/merge-patch+json-ish', 'Application/Merge-Patch+JSON'])(
    'refuses a PATCH with Content-Type %j: 415 in the router, not the handler',
    (contentType) => {
      expect(selectRoute(ITEM, 'PATCH', contentType, '')).toEqual({
        code: 415,
        reason: 'UnsupportedMediaType',
        message: '415: Unsupported Media Type',
        details: {},
      });
    },
  );

  it.each([
    'application/merge-patch+json',
    'application/json-patch+json; charset=utf-8',
    ' application/strategic-merge-patch+json',
    'text/plain, application/apply-patch+yaml',
  ])('routes a PATCH with Content-Type %j', (contentType) => {
    expect(selectRoute(ITEM, 'PATCH', contentType, '')).toBeUndefined();
  });

  it('takes any Content-Type on routes without Consumes (PUT, POST)', () => {
    expect(selectRoute(ITEM, 'PUT', 'text/plain', '')).toBeUndefined();
    expect(selectRoute(COLLECTION, 'POST', 'text/plain', '')).toBeUndefined();
  });

  it('lists the object media types for a refused Accept on a GET of one object', () => {
    expect(selectRoute(ITEM, 'GET', '', 'text/html')).toEqual(notAcceptable(MEDIA));
  });

  it('lists the stream media types too for a LIST route, which also serves ?watch, and for /watch/', () => {
    expect(selectRoute(COLLECTION, 'GET', '', 'text/html')).toEqual(notAcceptable(`${MEDIA}, ${STREAMS}`));
    expect(selectRoute(WATCH_PATH, 'GET', '', 'text/html')).toEqual(notAcceptable(`${MEDIA}, ${STREAMS}`));
  });

  it.each(['application/*', 'text/*', 'APPLICATION/JSON', 'application/json+foo'])(
    'refuses Accept %j, which the handler negotiation alone would not all refuse',
    (accept) => {
      expect(selectRoute(ITEM, 'GET', '', accept)?.code).toBe(406);
    },
  );

  it.each([
    '',
    '*/*',
    '*/*;q=0',
    'text/html, application/json',
    'application/json;as=Table;v=v1;g=meta.k8s.io',
    'application/yaml;stream=watch',
    ' application/vnd.kubernetes.protobuf ;q=0.5',
  ])('routes Accept %j (parameters and q-values are not read)', (accept) => {
    expect(selectRoute(ITEM, 'GET', '', accept)).toBeUndefined();
  });

  it('checks the Content-Type before the Accept', () => {
    expect(selectRoute(ITEM, 'PATCH', 'application/json', 'text/html')?.code).toBe(415);
  });
});
