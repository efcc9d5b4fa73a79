import { describe, expectTypeOf, it } from 'vitest';
import * as v135 from '../../../generated/k8s-lease-client/src/v1_35/index.js';
import * as v130 from '../../../generated/k8s-lease-client/src/v1_30/index.js';
import * as v131 from '../../../generated/k8s-lease-client/src/v1_31/index.js';

declare const client: v135.Client;
declare const lease135: v135.Lease;

describe('generated clients reject what must not compile', () => {
  it('an unknown query parameter', () => {
    // @ts-expect-error — `limit` is not a query parameter of read
    void v135.readNamespacedLease(client, { namespace: 'ns', name: 'a', limit: 1 });
    // @ts-expect-error — misspelt parameter
    void v135.listNamespacedLease(client, { namespace: 'ns', labelSelectr: 'a=b' });
    void v135.listNamespacedLease(client, { namespace: 'ns', labelSelector: 'a=b', limit: 1, continue: 'x' });
  });

  it('a missing namespace or name', () => {
    // @ts-expect-error — namespace is required
    void v135.readNamespacedLease(client, { name: 'a' });
    // @ts-expect-error — name is required
    void v135.deleteNamespacedLease(client, { namespace: 'ns' });
  });

  it('a JSON-patch body passed as a merge patch', () => {
    const operations = [{ op: 'replace', path: '/spec/holderIdentity', value: 'me' }] as const;
    // @ts-expect-error — an RFC 6902 operation list is not a merge patch body
    void v135.patchNamespacedLease(client, { namespace: 'ns', name: 'a', patch: { type: 'merge', body: operations } });
    void v135.patchNamespacedLease(client, {
      namespace: 'ns',
      name: 'a',
      // @ts-expect-error — nor a strategic merge patch body
      patch: { type: 'strategic', body: operations },
    });
    void v135.patchNamespacedLease(client, { namespace: 'ns', name: 'a', patch: { type: 'json', operations } });
  });

  it('a patch without a type, or with an unknown type', () => {
    // @ts-expect-error — no silent default patch type
    void v135.patchNamespacedLease(client, { namespace: 'ns', name: 'a', patch: { body: { spec: {} } } });
    // @ts-expect-error — not a patch type Kubernetes accepts
    void v135.patchNamespacedLease(client, { namespace: 'ns', name: 'a', patch: { type: 'xml', body: {} } });
  });

  it('an apply without fieldManager, and force on a non-apply patch', () => {
    const body = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', spec: { holderIdentity: 'me' } } as const;
    // @ts-expect-error — server-side apply requires fieldManager
    void v135.patchNamespacedLease(client, { namespace: 'ns', name: 'a', patch: { type: 'apply', body } });
    void v135.patchNamespacedLease(client, {
      namespace: 'ns',
      name: 'a',
      fieldManager: 'me',
      force: true,
      patch: { type: 'apply', body },
    });
    // @ts-expect-error — force must be unset for non-apply patches
    void v135.patchNamespacedLease(client, {
      namespace: 'ns',
      name: 'a',
      force: true,
      patch: { type: 'merge', body: { spec: {} } },
    });
  });

  it('a 1.31-only field used with the 1.30 client', () => {
    void v130.createNamespacedLease(client, {
      namespace: 'ns',
      // @ts-expect-error — LeaseSpec.preferredHolder appears in 1.31
      body: { metadata: { name: 'a' }, spec: { preferredHolder: 'b', strategy: 'OldestEmulationVersion' } },
    });
    void v131.createNamespacedLease(client, {
      namespace: 'ns',
      body: { metadata: { name: 'a' }, spec: { preferredHolder: 'b', strategy: 'OldestEmulationVersion' } },
    });
    void v131.deleteNamespacedLease(client, {
      namespace: 'ns',
      name: 'a',
      // @ts-expect-error — ignoreStoreReadErrorWithClusterBreakingPotential appears in 1.33
      ignoreStoreReadErrorWithClusterBreakingPotential: true,
    });
    void v135.deleteNamespacedLease(client, {
      namespace: 'ns',
      name: 'a',
      ignoreStoreReadErrorWithClusterBreakingPotential: true,
    });
  });

  it('watch-only parameters on a plain list (watches have their own functions)', () => {
    // @ts-expect-error — a list returns one LeaseList, not a stream
    void v135.listNamespacedLease(client, { namespace: 'ns', watch: true });
  });

  it('closed sets of values for dryRun, propagationPolicy, fieldValidation, resourceVersionMatch', () => {
    // @ts-expect-error — only "All"
    void v135.createNamespacedLease(client, { namespace: 'ns', body: lease135, dryRun: 'Yes' });
    // @ts-expect-error — not a propagation policy
    void v135.deleteNamespacedLease(client, { namespace: 'ns', name: 'a', propagationPolicy: 'Cascade' });
    void v135.deleteNamespacedLease(client, {
      namespace: 'ns',
      name: 'a',
      propagationPolicy: 'Foreground',
      dryRun: 'All',
      gracePeriodSeconds: 0,
    });
  });
});

describe('generated clients type what they return', () => {
  it('responses typed by status code', () => {
    expectTypeOf(v135.readNamespacedLease).returns.toEqualTypeOf<Promise<v135.Lease>>();
    expectTypeOf(v135.listNamespacedLease).returns.toEqualTypeOf<Promise<v135.LeaseList>>();
    expectTypeOf(v135.deleteNamespacedLease).returns.toEqualTypeOf<Promise<v135.Status>>();
    // The API server answers a deletecollection with the deleted objects (upstream quirk fixed in the normalised spec).
    expectTypeOf(v135.deleteCollectionNamespacedLease).returns.toEqualTypeOf<Promise<v135.LeaseList>>();
    expectTypeOf<v135.CreateNamespacedLeaseResponses>().toEqualTypeOf<{
      200: v135.Lease;
      201: v135.Lease;
      202: v135.Lease;
    }>();
  });

  it('MicroTime and Time are exact strings, never Date', () => {
    expectTypeOf<NonNullable<v135.LeaseSpec['renewTime']>>().toMatchTypeOf<string>();
    expectTypeOf<string>().not.toMatchTypeOf<NonNullable<v135.LeaseSpec['renewTime']>>();
    expectTypeOf<Date>().not.toMatchTypeOf<NonNullable<v135.LeaseSpec['acquireTime']>>();
    expectTypeOf<NonNullable<v135.ObjectMeta['creationTimestamp']>>().toEqualTypeOf<v135.Time>();
    expectTypeOf(v135.microTimeNow()).toEqualTypeOf<v135.MicroTime>();
    // @ts-expect-error — a plain string is not a MicroTime until validated (asMicroTime)
    const renewTime: v135.MicroTime = '2024-01-01T00:00:00.000000Z';
    void renewTime;
  });

  it('every call takes an AbortSignal and a timeout', () => {
    void v135.readNamespacedLease(
      client,
      { namespace: 'ns', name: 'a' },
      { signal: AbortSignal.timeout(1000), timeoutMs: 500 },
    );
    void v135.getAPIResources(client, { signal: new AbortController().signal });
  });
});

describe('optional inputs take undefined under exactOptionalPropertyTypes', () => {
  it('a maybe-undefined value from an optional chain passed to optional params, bodies and options', () => {
    const list = null as unknown as v135.LeaseList;
    const maybe = lease135.metadata?.resourceVersion;
    void v135.deleteNamespacedLease(client, {
      namespace: 'ns',
      name: 'a',
      body: { preconditions: { resourceVersion: maybe } },
      gracePeriodSeconds: undefined,
    });
    void v135.listNamespacedLease(client, {
      namespace: 'ns',
      labelSelector: undefined,
      resourceVersion: list.metadata?.resourceVersion,
    });
    void v135.readNamespacedLease(
      client,
      { namespace: 'ns', name: 'a' },
      { signal: undefined, timeoutMs: undefined, headers: undefined },
    );
    void v135.replaceNamespacedLease(client, {
      namespace: 'ns',
      name: 'a',
      body: { ...lease135, spec: { holderIdentity: lease135.spec?.holderIdentity } },
    });
    void v135.createClient({ baseUrl: 'http://x', token: undefined, timeoutMs: undefined, fetch: undefined });
    void v135.listAllNamespacedLeases(
      client,
      { namespace: 'ns', labelSelector: undefined },
      { limit: undefined, signal: undefined },
    );
    void v135.watchNamespacedLeases(client, { namespace: 'ns', labelSelector: undefined, fieldSelector: undefined });
    void v135.watchNamespacedLeases(
      client,
      { namespace: 'ns' },
      { resourceVersion: list.metadata?.resourceVersion, signal: undefined, reconnect: undefined },
    );
  });
});

describe('arguments with nothing required may be left out', () => {
  it('listLeaseForAllNamespaces(client) without params', () => {
    void v135.listLeaseForAllNamespaces(client);
    void v135.listLeaseForAllNamespaces(client, undefined, { timeoutMs: 1000 });
    void v135.listLeaseForAllNamespacesWithResponse(client);
    // @ts-expect-error — a namespaced list still needs its namespace
    void v135.listNamespacedLease(client);
  });
});

describe('…WithResponse gives { status, headers, body } typed per status code', () => {
  it('narrows the body by status', async () => {
    const created = await v135.createNamespacedLeaseWithResponse(client, { namespace: 'ns', body: lease135 });
    expectTypeOf(created.status).toEqualTypeOf<200 | 201 | 202>();
    expectTypeOf(created.headers).toEqualTypeOf<Headers>();
    expectTypeOf(created.body).toEqualTypeOf<v135.Lease>();
    const deleted = await v135.deleteNamespacedLeaseWithResponse(client, { namespace: 'ns', name: 'a' });
    if (deleted.status === 200) expectTypeOf(deleted.body).toEqualTypeOf<v135.Status>();
    expectTypeOf<v135.ResponseOf<{ 200: v135.Lease; 201: v135.Status }>>().toEqualTypeOf<
      v135.ApiResponse<200, v135.Lease> | v135.ApiResponse<201, v135.Status>
    >();
    const read = await v135.readNamespacedLeaseWithResponse(
      client,
      { namespace: 'ns', name: 'a' },
      { signal: AbortSignal.timeout(1000) },
    );
    expectTypeOf(read).toEqualTypeOf<v135.ApiResponse<200, v135.Lease>>();
    // @ts-expect-error — a read never answers 201
    if (read.status === 201) void read;
  });
});

describe('each release entry point exports only what its functions use', () => {
  it("WatchEvent is the runtime's typed event, not the spec's untyped model", () => {
    expectTypeOf<v135.WatchEvent<v135.Lease>['object']>().toEqualTypeOf<v135.Lease>();
    expectTypeOf<v130.WatchEvent<v130.Lease>['type']>().toEqualTypeOf<v130.WatchEventType>();
  });

  it('no builders for the deprecated /watch/ paths', () => {
    // @ts-expect-error — watches use the list paths with watch=true
    void v135.watchNamespacedLeasesPath;
    // @ts-expect-error — likewise
    void v131.watchLeasesPath;
    void v135.namespacedLeasesPath('ns');
  });
});
