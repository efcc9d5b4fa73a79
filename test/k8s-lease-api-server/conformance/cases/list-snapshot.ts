// Paged LIST consistency: a continue is served at the first page's resourceVersion, whatever was written
// since, until that revision is compacted (here: falls out of the history window), then 410 with an
// inconsistent-continue token that resumes at the latest state.
import type { ConformanceCase } from '../case.js';

const LEASES = '/apis/coordination.k8s.io/v1/namespaces/{ns}/leases';

const lease = (name: string, holderIdentity = 'alice') => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name },
  spec: { holderIdentity },
});

const createStep = (name: string) =>
  ({ method: 'POST', path: LEASES, body: lease(name), expect: { status: 201 } }) as const;

const CONTINUE_EXPIRED =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

export const cases: readonly ConformanceCase[] = [
  {
    name: 'a continue lists the objects of the first page’s snapshot as they were: later creates absent, later changes and deletes not seen',
    source:
      'k8s.io/apiserver/pkg/storage/testing/store_tests.go RunTestListContinuation (continue at the first page’s revision); k8s.io/apiserver/pkg/storage/cacher/cacher.go GetList from watch_cache_storage.go GetExactSnapshotLocked (ListFromCacheSnapshot)',
    steps: [
      createStep('a'),
      createStep('c'),
      createStep('e'),
      createStep('g'),
      {
        method: 'GET',
        path: `${LEASES}?limit=2`,
        save: { token: 'metadata.continue', rv: 'metadata.resourceVersion' },
        expect: {
          status: 200,
          json: {
            metadata: { remainingItemCount: 2 },
            items: [{ metadata: { name: 'a' } }, { metadata: { name: 'c' } }],
          },
        },
      },
      createStep('d'),
      {
        method: 'PATCH',
        path: `${LEASES}/e`,
        headers: { 'Content-Type': 'application/merge-patch+json' },
        body: { spec: { holderIdentity: 'bob' } },
        expect: { status: 200 },
      },
      { method: 'DELETE', path: `${LEASES}/g`, expect: { status: 200 } },
      createStep('h'),
      {
        method: 'GET',
        path: `${LEASES}?limit=10&continue={saved.token}`,
        expect: {
          status: 200,
          json: {
            metadata: { resourceVersion: '{saved.rv}' },
            items: [
              { metadata: { name: 'e' }, spec: { holderIdentity: 'alice' } },
              { metadata: { name: 'g' }, spec: { holderIdentity: 'alice' } },
            ],
          },
        },
      },
    ],
  },
  {
    name: 'a continue from a compacted revision is 410 Expired with a token that resumes at the latest state',
    source:
      'k8s.io/apiserver/pkg/storage/etcd3/errors.go handleCompactedErrorForPaging (inconsistentContinue, continue rv -1); store_tests.go RunTestListInconsistentContinuation',
    serverArgs: ['--history', '3'],
    steps: [
      createStep('a'),
      createStep('b'),
      createStep('c'),
      { method: 'GET', path: `${LEASES}?limit=1`, save: { token: 'metadata.continue' }, expect: { status: 200 } },
      createStep('d'),
      createStep('e'),
      createStep('f'),
      createStep('g'),
      {
        method: 'GET',
        path: `${LEASES}?limit=10&continue={saved.token}`,
        save: { inconsistent: 'metadata.continue' },
        expect: { status: 410, json: { kind: 'Status', reason: 'Expired', code: 410, message: CONTINUE_EXPIRED } },
      },
      {
        method: 'GET',
        path: `${LEASES}?limit=10&continue={saved.inconsistent}`,
        expect: {
          status: 200,
          json: { items: ['b', 'c', 'd', 'e', 'f', 'g'].map((name) => ({ metadata: { name } })) },
        },
      },
    ],
  },
];
