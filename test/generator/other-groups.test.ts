/**
 * Nothing in the pipeline depends on Lease by accident: two other API groups, cut from Kubernetes 1.35.0's
 * swagger.json (test/fixtures/other-groups/README.md), go through load → IR → emit with a generation target of
 * their own, and what comes out is named by the spec and type-checks under the strictest settings users turn on.
 *   scheduling.k8s.io: PriorityClass, cluster-scoped (v1), and Workload, namespaced (v1alpha1).
 *   discovery.k8s.io: EndpointSlice, namespaced (v1).
 * The plurals and scopes expected here are kube-apiserver's (kubernetes/kubernetes): PriorityClass's NewREST in
 * pkg/registry/scheduling/priorityclass/storage/storage.go (`scheduling.Resource("priorityclasses")`) and its
 * strategy's NamespaceScoped() false (pkg/registry/scheduling/priorityclass/strategy.go); EndpointSlice's NewREST in
 * pkg/registry/discovery/endpointslice/storage/storage.go (`discovery.Resource("endpointslices")`, SingularName
 * `endpointslice`) and NamespaceScoped() true (pkg/registry/discovery/endpointslice/strategy.go). The
 * `…ForAllNamespaces` name belongs to a namespaced resource's list across namespaces only (apiserver's
 * endpoints/installer.go, registerResourceHandlers: `action.AllNamespaces`).
 */
import { join } from 'node:path';
import type ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitRelease } from '../../generator/emit/emit-release.js';
import { operationRows } from '../../generator/emit/readme-tables.js';
import { annotateSince } from '../../generator/ir/annotate-since.js';
import { buildReleaseIr, rootGroupVersionIr } from '../../generator/ir/build-release-ir.js';
import type { GroupVersionIr, ReleaseIr } from '../../generator/ir/types.js';
import { normalizeUpstreamDocument } from '../../generator/load/normalize-document.js';
import { readUpstreamDocument } from '../../generator/load/read-document.js';
import type { GenerationTarget } from '../../generator/shared/target.js';
import { PROJECT_ROOT } from '../helpers/project.js';
import {
  makeTempDir,
  removeTempDir,
  runtimeSources,
  STRICT_OPTIONS,
  typeCheck,
  writeTree,
} from '../helpers/type-check.js';

const RELEASE = '1.35.0';
const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures', 'other-groups');
const SCHEDULING: GenerationTarget = { group: 'scheduling.k8s.io', rootVersion: 'v1' };
const DISCOVERY: GenerationTarget = { group: 'discovery.k8s.io', rootVersion: 'v1' };

/** strict, noUncheckedIndexedAccess and exactOptionalPropertyTypes, as test/tsconfig.strictest.json. */
const STRICTEST: ts.CompilerOptions = { ...STRICT_OPTIONS, exactOptionalPropertyTypes: true };

async function releaseIrOf(target: GenerationTarget): Promise<ReleaseIr> {
  const file = join(FIXTURES, `v${RELEASE}-${target.group}.swagger.json`);
  const { document } = await normalizeUpstreamDocument(await readUpstreamDocument(file), RELEASE, target);
  return annotateSince([buildReleaseIr(RELEASE, document, file, target)])[0]!;
}

function groupVersion(ir: ReleaseIr, version: string): GroupVersionIr {
  const found = ir.groupVersions.find((gv) => gv.version === version);
  if (found === undefined) throw new Error(`${ir.groupVersions.map((gv) => gv.version).join(', ')} has no ${version}`);
  return found;
}

function kindsOf(gv: GroupVersionIr): Array<[string, string]> {
  return gv.operations.map((o) => [o.name, o.kind]);
}

let scheduling: ReleaseIr;
let discovery: ReleaseIr;
beforeAll(async () => {
  [scheduling, discovery] = await Promise.all([releaseIrOf(SCHEDULING), releaseIrOf(DISCOVERY)]);
});

describe('plurals and scope come from the spec’s paths and x-kubernetes-group-version-kind', () => {
  it('scheduling.k8s.io: PriorityClass is cluster-scoped, Workload namespaced, each with its own plural', () => {
    expect(scheduling.groupVersions.map((gv) => [gv.version, gv.root, gv.resources])).toEqual([
      ['v1', true, [{ plural: 'priorityclasses', kind: 'PriorityClass', namespaced: false }]],
      ['v1alpha1', false, [{ plural: 'workloads', kind: 'Workload', namespaced: true }]],
    ]);
  });

  it('discovery.k8s.io: EndpointSlice is namespaced', () => {
    expect(discovery.groupVersions.map((gv) => [gv.version, gv.root, gv.resources])).toEqual([
      ['v1', true, [{ plural: 'endpointslices', kind: 'EndpointSlice', namespaced: true }]],
    ]);
  });

  it('a cluster-scoped list is a plain list, not one "for all namespaces"', () => {
    const kinds = kindsOf(groupVersion(scheduling, 'v1'));
    expect(kinds).toContainEqual(['listPriorityClass', 'list']);
    expect(kinds).toContainEqual(['watchPriorityClassList', 'watchList']);
    expect(kinds.filter(([, kind]) => kind.endsWith('ForAllNamespaces'))).toEqual([]);
  });

  it('a namespaced resource’s list outside namespaces/{namespace}/ spans all namespaces', () => {
    const kinds = kindsOf(groupVersion(discovery, 'v1'));
    expect(kinds).toContainEqual(['listNamespacedEndpointSlice', 'list']);
    expect(kinds).toContainEqual(['listEndpointSliceForAllNamespaces', 'listForAllNamespaces']);
    expect(kindsOf(groupVersion(scheduling, 'v1alpha1'))).toContainEqual([
      'listWorkloadForAllNamespaces',
      'listForAllNamespaces',
    ]);
  });

  it('path builders name one object by its kind’s word, not the plural less an `s`', () => {
    expect(groupVersion(scheduling, 'v1').paths.map((p) => p.builderName)).toEqual([
      'apiResourcesPath',
      'priorityclassesPath',
      'priorityclassPath',
      'watchPriorityclassesPath',
      'watchPriorityclassPath',
    ]);
    expect(groupVersion(discovery, 'v1').paths.map((p) => p.builderName)).toContain('namespacedEndpointslicePath');
  });
});

describe('the generation target chooses versions and kinds', () => {
  it('versions: only the root version when the target lists no other', async () => {
    const ir = await releaseIrOf({ ...SCHEDULING, versions: [] });
    expect(ir.groupVersions.map((gv) => gv.version)).toEqual(['v1']);
  });

  it('kinds: a kind left out takes its operations, models and resource with it', async () => {
    const ir = await releaseIrOf({ ...SCHEDULING, kinds: ['Workload'] });
    const v1 = groupVersion(ir, 'v1');
    expect(v1.resources).toEqual([]);
    expect(v1.operations.map((o) => o.kind)).toEqual(['getAPIResources']);
    expect(v1.models.map((m) => m.name)).not.toContain('PriorityClass');
    expect(groupVersion(ir, 'v1alpha1').resources.map((r) => r.kind)).toEqual(['Workload']);
  });

  it('kinds: a version left with none of them is not generated (the root version always is)', async () => {
    const ir = await releaseIrOf({ ...SCHEDULING, kinds: ['PriorityClass'] });
    expect(ir.groupVersions.map((gv) => [gv.version, gv.resources.map((r) => r.kind)])).toEqual([
      ['v1', ['PriorityClass']],
    ]);
  });

  it('a document without the root version is refused, naming it', async () => {
    await expect(releaseIrOf({ ...SCHEDULING, rootVersion: 'v1beta1' })).rejects.toThrow(
      /no scheduling\.k8s\.io\/v1beta1 paths \(the root version, which every release must serve\); found v1, v1alpha1/,
    );
  });
});

/** Per group, a package's src/: the emitted release, the client runtime beside it, and a module of README examples. */
function programFiles(): Map<string, string> {
  const files = new Map<string, string>();
  const runtime = runtimeSources();
  for (const [name, ir] of [
    ['scheduling', scheduling],
    ['discovery', discovery],
  ] as const) {
    for (const [path, text] of runtime) files.set(`${name}/${path}`, text);
    for (const [path, text] of emitRelease({ ir, documentPath: `${name}.json`, contentHash: 'sha256:test' }))
      files.set(`${name}/${path}`, text);
    files.set(`${name}/examples.ts`, examplesModule(rootGroupVersionIr(ir), './v1_35/index.js'));
  }
  return files;
}

/**
 * The README's example calls as one module: each in a block of its own (they all name their answer `result`),
 * with what the README leaves implicit (`client`, and an object of the kind for replace and delete) declared.
 */
function examplesModule(gv: GroupVersionIr, entry: string): string {
  const rows = operationRows(gv);
  const names = rows.map((r) => r.name).join(', ');
  const kind = gv.resources[0]!.kind!;
  const variable = kind.charAt(0).toLowerCase() + kind.slice(1);
  return [
    `import { ${names} } from '${entry}';`,
    `import type { Client, ${kind} } from '${entry}';`,
    'declare const client: Client;',
    `declare const ${variable}: ${kind};`,
    ...rows.map((r) => `{\n${r.example}\n}`),
    'export {};',
    '',
  ].join('\n');
}

describe('what is emitted for another group', () => {
  let dir: string | undefined;
  afterAll(() => removeTempDir(dir));

  it('names watches, paged lists and informers, and speaks of the objects, by the resource’s plural', () => {
    const emitted = emitRelease({ ir: scheduling, documentPath: 'scheduling.json', contentHash: 'sha256:test' });
    const watches = emitted.get('v1_35/watches.ts');
    expect(watches).toContain('export function watchPriorityClasses(');
    expect(watches).toContain('export function listAllPriorityClasses(');
    expect(watches).toContain('export function createPriorityClassInformer(');
    expect(watches).toContain('Watches PriorityClasses (`GET /apis/scheduling.k8s.io/v1/priorityclasses`');
    // PriorityClass has no namespaces to span; its v1 modules never say so, in names or in prose.
    for (const [path, text] of emitted) if (!path.includes('/v1alpha1/')) expect(text).not.toMatch(/all namespaces/i);
    expect([...emitted.values()].join('\n')).not.toMatch(/Classs|classe[^s]/);
    const slices = emitRelease({ ir: discovery, documentPath: 'discovery.json', contentHash: 'sha256:test' }).get(
      'v1_35/watches.ts',
    );
    expect(slices).toContain('export function watchNamespacedEndpointSlices(');
    expect(slices).toContain('export function watchEndpointSlicesForAllNamespaces(');
  });

  it('the README examples are written for the kind, not for a Lease', () => {
    const examples = operationRows(rootGroupVersionIr(scheduling)).map((r) => r.example);
    expect(examples.join('\n')).not.toMatch(/lease|holderIdentity/i);
    expect(examples).toContain(
      "const result = await createPriorityClass(client, { body: { metadata: { name: 'my-priority-class' }, value: 1 } });",
    );
    const slices = operationRows(rootGroupVersionIr(discovery)).map((r) => r.example);
    expect(slices).toContain(
      "const result = await replaceNamespacedEndpointSlice(client, { namespace: 'default', name: 'my-endpoint-slice', body: endpointSlice });",
    );
  });

  it('type-checks, runtime and README examples included, under strict + noUncheckedIndexedAccess + exactOptionalPropertyTypes', () => {
    dir = makeTempDir('other-groups-');
    const written = writeTree(dir, programFiles());
    const { messages } = typeCheck(dir, written, STRICTEST);
    expect(messages, messages.join('\n')).toEqual([]);
    // The check saw the emitted modules of both groups, not only the runtime.
    expect(written.filter((f) => /[/\\](scheduling|discovery)[/\\]v1_35[/\\]/.test(f)).length).toBeGreaterThan(8);
  });
});
