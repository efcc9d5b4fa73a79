// A paged LIST while the store is written: every page comes from the snapshot at the continue token's
// resourceVersion, so the pages together hold exactly the objects that existed then, each once, in key
// order, as they were then, under one resourceVersion; later creates do not appear and later deletes
// do not go missing. Upstream: k8s.io/apiserver/pkg/storage/testing/store_tests.go
// RunTestListContinuation (continue served at the first page's revision) and RunTestConsistentList;
// the cacher serves continues from its snapshot at that revision (k8s.io/apiserver/pkg/storage/cacher
// cacher.go GetList with ListFromCacheSnapshot, watch_cache_storage.go GetExactSnapshotLocked).
import { afterEach, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import type { Lease } from '../../../templates/k8s-lease-api-server/src/types.js';
import { SNAPSHOT_LIMIT } from '../../../templates/k8s-lease-api-server/src/store/lease-store.js';
import { seededRandom } from '../../helpers/seeded-random.js';
import { BASE, type JsonBody, TEST_NAMESPACES, api, start } from '../helpers.js';

const NAMESPACES = ['default', ...TEST_NAMESPACES];

interface Page {
  rv: string;
  keys: string[];
  versions: Map<string, string>;
  token: string | undefined;
}

function keyOf(item: JsonBody): string {
  return `${item.metadata?.namespace ?? ''}/${item.metadata?.name ?? ''}`;
}

function leaseFor(namespace: string, name: string, holder: string): Lease {
  return { metadata: { name, namespace }, spec: { holderIdentity: holder } };
}

/** Writes through the store handle and records every state by resourceVersion: key → object resourceVersion. */
class Writer {
  readonly states = new Map<string, Map<string, string>>();
  private readonly live = new Map<string, string>();
  private readonly random: () => number;
  writes = 0;

  constructor(
    private readonly server: LeaseApiServer,
    seed: number,
  ) {
    this.random = seededRandom(seed);
    for (const lease of server.store.list())
      this.live.set(`${lease.metadata?.namespace}/${lease.metadata?.name}`, lease.metadata?.resourceVersion ?? '');
    this.remember();
  }

  private remember(): void {
    this.states.set(this.server.store.resourceVersion, new Map(this.live));
  }

  /** One random create (between existing keys), update or delete. */
  step(): void {
    const namespace = NAMESPACES[Math.floor(this.random() * NAMESPACES.length)] ?? 'default';
    const name = `lease-${Math.floor(this.random() * 2000)
      .toString()
      .padStart(4, '0')}`;
    const key = `${namespace}/${name}`;
    const store = this.server.store;
    if (this.live.has(key)) {
      const result =
        this.random() < 0.4
          ? store.delete(namespace, name)
          : store.update(leaseFor(namespace, name, `h${this.writes}`));
      if (!result.ok) throw new Error(result.error.message);
    } else if (!store.create(leaseFor(namespace, name, `h${this.writes}`)).ok) {
      throw new Error(`create ${key}`);
    }
    const now = store.get(namespace, name);
    if (now === undefined) this.live.delete(key);
    else this.live.set(key, now.metadata?.resourceVersion ?? '');
    this.writes++;
    this.remember();
  }
}

async function page(server: LeaseApiServer, path: string, limit: number, token: string | undefined): Promise<Page> {
  const query = `limit=${limit}${token === undefined ? '' : `&continue=${encodeURIComponent(token)}`}`;
  const res = await api(server, 'GET', `${path}?${query}`);
  if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
  const items = res.body.items ?? [];
  return {
    rv: res.body.metadata?.resourceVersion ?? '',
    keys: items.map(keyOf),
    versions: new Map(items.map((item) => [keyOf(item), item.metadata?.resourceVersion ?? ''])),
    token: res.body.metadata?.continue,
  };
}

/** Pages through path while `between` runs before each continue; returns the pages. */
async function pagedList(
  server: LeaseApiServer,
  path: string,
  limit: number,
  between: () => Promise<void>,
): Promise<Page[]> {
  const pages: Page[] = [];
  let token: string | undefined;
  do {
    if (token !== undefined) await between();
    const next = await page(server, path, limit, token);
    pages.push(next);
    token = next.token;
  } while (token !== undefined);
  return pages;
}

function expectConsistent(pages: Page[], writer: Writer, namespace: string | undefined): void {
  const rvs = new Set(pages.map((p) => p.rv));
  expect(rvs.size).toBe(1);
  const rv = pages[0]?.rv ?? '';
  const state = writer.states.get(rv);
  if (state === undefined) throw new Error(`no recorded state at ${rv}`);
  const expected = [...state]
    .filter(([key]) => namespace === undefined || key.startsWith(`${namespace}/`))
    .sort(([a], [b]) => (a < b ? -1 : 1));
  const keys = pages.flatMap((p) => p.keys);
  // Each object of the snapshot exactly once, in key order, as it was at the snapshot.
  expect(keys).toEqual(expected.map(([key]) => key));
  const versions = new Map(pages.flatMap((p) => [...p.versions]));
  expect([...versions].sort(([a], [b]) => (a < b ? -1 : 1))).toEqual(expected);
  // The writes between pages did change the store: the test saw a moving target.
  expect(writer.states.size).toBeGreaterThan(pages.length);
}

describe('paged LIST under concurrent writes', () => {
  let server: LeaseApiServer;
  afterEach(async () => server.close());

  async function seeded(seed: number): Promise<Writer> {
    server = await start({ namespaces: TEST_NAMESPACES });
    const writer = new Writer(server, seed);
    for (let i = 0; i < 900; i++) writer.step();
    return new Writer(server, seed + 1);
  }

  it.each([
    ['every namespace', undefined],
    ['one namespace', 'other'],
  ])('returns exactly the objects of the first page’s snapshot, in %s', async (_, namespace) => {
    const writer = await seeded(21);
    const path = namespace === undefined ? `${BASE}/leases` : `${BASE}/namespaces/${namespace}/leases`;
    const pages = await pagedList(server, path, 37, async () => {
      for (let i = 0; i < 25; i++) writer.step();
    });
    expect(pages.length).toBeGreaterThan(3);
    expectConsistent(pages, writer, namespace);
  });

  it('stays consistent when other LISTs push its snapshot out of the cache (rebuilt from history)', async () => {
    const writer = await seeded(31);
    const pages = await pagedList(server, `${BASE}/leases`, 100, async () => {
      // More LISTs at distinct resourceVersions than snapshots are kept.
      for (let i = 0; i <= SNAPSHOT_LIMIT; i++) {
        writer.step();
        expect((await api(server, 'GET', `${BASE}/leases?limit=1`)).status).toBe(200);
      }
    });
    expectConsistent(pages, writer, undefined);
  });
});
