// Each patch kind goes with its own Content-Type (the four kube-apiserver accepts for PATCH: RFC 6902 JSON patch,
// RFC 7386 merge patch, strategic merge patch and server-side apply), the body as JSON.
import { describe, expect, it } from 'vitest';
import { patchRequest } from '../../../templates/k8s-lease-client/src/runtime/patch.js';
import type { AnyPatch, JsonPatch } from '../../../templates/k8s-lease-client/src/runtime/patch.js';

describe('patchRequest', () => {
  it('a JSON patch: its operations list, as application/json-patch+json', () => {
    const patch: JsonPatch = {
      type: 'json',
      operations: [
        { op: 'test', path: '/spec/holderIdentity', value: 'a' },
        { op: 'replace', path: '/spec/holderIdentity', value: 'b' },
        { op: 'remove', path: '/metadata/labels/x' },
        { op: 'copy', from: '/spec/holderIdentity', path: '/metadata/annotations/holder' },
      ],
    };
    expect(patchRequest(patch)).toEqual({
      body: JSON.stringify(patch.operations),
      contentType: 'application/json-patch+json',
    });
  });

  it.each<[Exclude<AnyPatch['type'], 'json'>, string]>([
    ['merge', 'application/merge-patch+json'],
    ['strategic', 'application/strategic-merge-patch+json'],
    ['apply', 'application/apply-patch+yaml'],
  ])('a %s patch: its body, as %s', (type, contentType) => {
    const body = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', spec: { holderIdentity: null } };
    expect(patchRequest({ type, body })).toEqual({ body: JSON.stringify(body), contentType });
  });

  it('keeps null, which deletes a field in a merge patch', () => {
    expect(patchRequest({ type: 'merge', body: { metadata: { labels: { x: null } } } }).body).toBe(
      '{"metadata":{"labels":{"x":null}}}',
    );
  });

  it('refuses a patch type it does not know, rather than send it under another', () => {
    expect(() => patchRequest({ type: 'xml' } as unknown as JsonPatch)).toThrow(
      new TypeError('unknown patch type "xml"'),
    );
  });

  it.each(['toString', '__proto__', 'constructor', 'hasOwnProperty'])(
    'refuses %s, a name Object.prototype has, as a patch type it does not know',
    (type) => {
      expect(() => patchRequest({ type } as unknown as JsonPatch)).toThrow(
        new TypeError(`unknown patch type ${JSON.stringify(type)}`),
      );
    },
  );
});
