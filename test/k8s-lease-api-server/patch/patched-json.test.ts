// The patched object as evanphx/json-patch v4 marshals it (kube-apiserver quotes it in the Invalid "patch"
// cause): nodes the patch never opened keep their JSON as it was (lazyNode); opened nodes are Go maps, whose
// keys encoding/json writes sorted. MergePatch opens every level it recurses into and every object it copies
// from the patch; a JSON patch opens the root and each container on the way to an operation's path or from.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';
import { jsonPatchedJson, mergePatchedJson } from '../../../templates/k8s-lease-api-server/src/patch/patched-json.js';

describe('mergePatchedJson', () => {
  it('sorts the levels the patch reaches and leaves the others as they were', () => {
    const result = { spec: { z: 1, a: { y: 1, x: 2 } }, metadata: { name: 'n', b: 1 } };
    expect(mergePatchedJson(result, { spec: { z: 1 } })).toBe(
      '{"metadata":{"name":"n","b":1},"spec":{"a":{"y":1,"x":2},"z":1}}',
    );
  });

  it('sorts an object copied from the patch all the way down, arrays of objects included', () => {
    const result = { spec: { b: 1, a: [{ d: 1, c: 2 }] } };
    expect(mergePatchedJson(result, { spec: { b: 1, a: [{ d: 1, c: 2 }] } })).toBe(
      '{"spec":{"a":[{"c":2,"d":1}],"b":1}}',
    );
  });

  it('writes the result as it is when the patch replaces the document with a non-object', () => {
    expect(mergePatchedJson({ b: 1, a: 2 }, 'x')).toBe('{"b":1,"a":2}');
  });
});

describe('jsonPatchedJson', () => {
  it('sorts the root and the containers an operation walks through, nothing else', () => {
    const result = { spec: { z: 1, a: 2 }, metadata: { name: 'n', b: 1 } };
    expect(jsonPatchedJson(result, [{ op: 'replace', path: '/spec/z', value: 1 }])).toBe(
      '{"metadata":{"name":"n","b":1},"spec":{"a":2,"z":1}}',
    );
  });

  it('follows "from", array indexes and escaped tokens (~1 for /)', () => {
    const result: JsonObject = {
      'a/b': { y: 1, x: 1 },
      l: [
        { q: 1, p: 2 },
        { s: 1, r: 2 },
      ],
      m: { k: 1, j: 2 },
    };
    expect(
      jsonPatchedJson(result, [
        { op: 'copy', from: '/m/k', path: '/a~1b/x' },
        { op: 'remove', path: '/l/1/s' },
      ]),
    ).toBe('{"a/b":{"x":1,"y":1},"l":[{"q":1,"p":2},{"r":2,"s":1}],"m":{"j":2,"k":1}}');
  });
});
