// Resources as the paths and x-kubernetes-group-version-kind say them; the layout is kube-apiserver's
// (apiserver pkg/endpoints/installer.go, registerResourceHandlers: a namespaced resource's paths sit under
// `namespaces/{namespace}/`, beside one list across namespaces; a cluster-scoped resource has none).
import { describe, expect, it } from 'vitest';
import { buildResources, coveredPathItems, resourceOfPath } from '../../../generator/ir/build-resources.js';
import type { JsonObject } from '../../../generator/shared/json.js';

const GV = { group: 'example.k8s.io', version: 'v1' };
const P = '/apis/example.k8s.io/v1';

const gvk = (kind: string, group = GV.group): JsonObject => ({
  get: { operationId: `op${kind}`, 'x-kubernetes-group-version-kind': { group, version: 'v1', kind } },
});

const DOCUMENT: JsonObject = {
  paths: {
    [`${P}/`]: { get: { operationId: 'getAPIResources' } },
    [`${P}/widgets`]: gvk('Widget'),
    [`${P}/widgets/{name}`]: gvk('Widget'),
    [`${P}/watch/widgets/{name}`]: gvk('Widget'),
    [`${P}/gadgets`]: gvk('Gadget'),
    [`${P}/namespaces/{namespace}/gadgets/{name}`]: gvk('Gadget'),
    // A subresource names another group's kind; the resource keeps its own.
    [`${P}/namespaces/{namespace}/gadgets/{name}/scale`]: gvk('Scale', 'autoscaling'),
    // No kind anywhere: the plural and scope still come from the paths.
    [`${P}/namespaces/{namespace}/things`]: { get: { operationId: 'listThings' } },
    '/apis/example.k8s.io/v2/others': gvk('Other'),
  },
};

describe('buildResources', () => {
  it('reads plural, kind and scope from the paths and their group-version-kinds, sorted by plural', () => {
    expect(buildResources(DOCUMENT, GV)).toEqual([
      { plural: 'gadgets', kind: 'Gadget', namespaced: true },
      { plural: 'things', kind: undefined, namespaced: true },
      { plural: 'widgets', kind: 'Widget', namespaced: false },
    ]);
  });

  it('a kind the spec names only on another version does not count', () => {
    const document: JsonObject = {
      paths: {
        [`${P}/widgets`]: {
          get: { 'x-kubernetes-group-version-kind': { group: GV.group, version: 'v2', kind: 'Widget' } },
        },
      },
    };
    expect(buildResources(document, GV)).toEqual([{ plural: 'widgets', kind: undefined, namespaced: false }]);
  });

  it('names the resource of a path, none for the discovery path or another version', () => {
    expect(resourceOfPath(`${P}/watch/namespaces/{namespace}/gadgets/{name}`, GV)).toBe('gadgets');
    expect(resourceOfPath(`${P}/`, GV)).toBeUndefined();
    expect(resourceOfPath('/apis/example.k8s.io/v2/others', GV)).toBeUndefined();
  });
});

describe('coveredPathItems', () => {
  const resources = buildResources(DOCUMENT, GV);
  const paths = (kinds?: readonly string[]): string[] =>
    coveredPathItems(DOCUMENT, GV, resources, {
      group: GV.group,
      rootVersion: 'v1',
      ...(kinds === undefined ? {} : { kinds }),
    }).map((i) => i.path);

  it('every path of the version when the target names no kinds', () => {
    expect(paths()).toHaveLength(8);
  });

  it('only the named kinds (subresources with their resource), the discovery path and kindless resources', () => {
    expect(paths(['Gadget'])).toEqual([
      `${P}/`,
      `${P}/gadgets`,
      `${P}/namespaces/{namespace}/gadgets/{name}`,
      `${P}/namespaces/{namespace}/gadgets/{name}/scale`,
      `${P}/namespaces/{namespace}/things`,
    ]);
  });
});
