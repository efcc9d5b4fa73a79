// Refusals go-restful's router makes before any handler runs (github.com/emicklei/go-restful/v3 jsr311.go
// RouterJSR311.detectRoute: method 405, Content-Type against the route's Consumes 415, Accept against its
// Produces 406), turned into a Status by the apiserver's serviceErrorHandler (pkg/server/handler.go:
// apierrors.NewGenericServerResponse, whose details are always set and here empty) and written by ErrorNegotiated.
import { expect } from 'vitest';
import type { ConformanceCase, ConformanceStep } from '../case.js';

const LEASES = '/apis/coordination.k8s.io/v1/namespaces/{ns}/leases';
const MEDIA = 'application/json, application/yaml, application/vnd.kubernetes.protobuf';
const STREAMS = 'application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch';
const HANDLER_SOURCE =
  'k8s.io/apiserver/pkg/server/handler.go serviceErrorHandler; apimachinery api/errors/errors.go NewGenericServerResponse';

const createLease = (name: string): ConformanceStep => ({
  method: 'POST',
  path: LEASES,
  body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name }, spec: {} },
  expect: { status: 201 },
});

/** WriteRawJSON's layout, json.MarshalIndent(status, "", "  "), for a Status that cannot be negotiated either. */
const indented = (code: number, reason: string, message: string): string =>
  JSON.stringify(
    { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, details: {}, code },
    null,
    2,
  );

export const cases: readonly ConformanceCase[] = [
  {
    name: 'a GET of a Lease with an Accept no route produces is the router 406, listing the representations, in indented JSON',
    source: `go-restful/v3 jsr311.go detectRoute ("406: Not Acceptable\\n\\nAvailable representations"); ${HANDLER_SOURCE}; responsewriters/writers.go WriteObjectNegotiated → WriteRawJSON`,
    steps: [
      createLease('a'),
      {
        method: 'GET',
        path: `${LEASES}/a`,
        headers: { Accept: 'text/html' },
        expect: {
          status: 406,
          headers: { 'content-type': 'application/json' },
          check: (r) =>
            expect(r.text).toBe(
              indented(406, 'NotAcceptable', `406: Not Acceptable\n\nAvailable representations: ${MEDIA}`),
            ),
        },
      },
    ],
  },
  {
    name: 'a watch with an unacceptable Accept gets the LIST route 406, whose representations include the stream types',
    source: `k8s.io/apiserver/pkg/endpoints/installer.go (LIST and WATCHLIST produce allMediaTypes); go-restful/v3 jsr311.go detectRoute; ${HANDLER_SOURCE}`,
    steps: [
      {
        method: 'GET',
        path: `${LEASES}?watch=true`,
        headers: { Accept: 'text/html' },
        expect: {
          status: 406,
          json: {
            reason: 'NotAcceptable',
            message: `406: Not Acceptable\n\nAvailable representations: ${MEDIA}, ${STREAMS}`,
            details: {},
          },
        },
      },
    ],
  },
  {
    name: "application/* passes the handler's negotiation but not the router: a 406, written in the JSON the Status negotiates to",
    source: `go-restful/v3 route.go Route.matchesAccept (exact types or */* only); ${HANDLER_SOURCE}; writers.go ErrorNegotiated`,
    steps: [
      {
        method: 'GET',
        path: LEASES,
        headers: { Accept: 'application/*' },
        expect: {
          status: 406,
          json: { reason: 'NotAcceptable', details: {}, code: 406 },
          check: (r) => expect(r.text.startsWith('{"kind":"Status","apiVersion":"v1","metadata":{},')).toBe(true),
        },
      },
    ],
  },
  {
    name: "a PATCH with a Content-Type that is no patch type is the router's 415, before the handler reads the body",
    source: `k8s.io/apiserver/pkg/endpoints/installer.go (PATCH Consumes the patch types); go-restful/v3 jsr311.go detectRoute ("415: Unsupported Media Type"); ${HANDLER_SOURCE}`,
    steps: [
      createLease('a'),
      {
        method: 'PATCH',
        path: `${LEASES}/a`,
        headers: { 'Content-Type': 'application/json' },
        body: '{"spec":{"holderIdentity":"x"}}',
        expect: {
          status: 415,
          headers: { 'content-type': 'application/json' },
          json: {
            kind: 'Status',
            status: 'Failure',
            reason: 'UnsupportedMediaType',
            message: '415: Unsupported Media Type',
            details: {},
            code: 415,
          },
        },
      },
      { method: 'GET', path: `${LEASES}/a`, expect: { status: 200, json: { spec: {} } } },
    ],
  },
  {
    name: 'a method no route of the path has is 405 with details {}',
    source: `go-restful/v3 jsr311.go detectRoute ("405: Method Not Allowed"); ${HANDLER_SOURCE}`,
    steps: [
      {
        method: 'POST',
        path: `${LEASES}/a`,
        body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'a' } },
        expect: {
          status: 405,
          headers: { allow: null },
          check: (r) =>
            expect(r.text).toBe(
              '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server does not allow this method on the requested resource","reason":"MethodNotAllowed","details":{},"code":405}',
            ),
        },
      },
    ],
  },
  {
    name: 'an unknown subresource of a Lease is a 404 with details {} and no cause',
    source: `go-restful/v3 curly.go CurlyRouter.SelectRoute ("404: Page Not Found"); ${HANDLER_SOURCE}`,
    steps: [
      createLease('a'),
      {
        method: 'GET',
        path: `${LEASES}/a/status`,
        expect: {
          status: 404,
          check: (r) =>
            expect(r.text).toBe(
              '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server could not find the requested resource","reason":"NotFound","details":{},"code":404}',
            ),
        },
      },
    ],
  },
];
