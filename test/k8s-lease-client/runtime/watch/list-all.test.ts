import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KubernetesApiError } from '../../../../templates/k8s-lease-client/src/runtime/errors.js';
import { createClient } from '../../../../templates/k8s-lease-client/src/runtime/transport.js';
import type { Client, RequestSpec } from '../../../../templates/k8s-lease-client/src/runtime/transport.js';
import { startLeaseApiServer } from '../../../../templates/k8s-lease-api-server/src/index.js';
import type { LeaseApiServer } from '../../../../templates/k8s-lease-api-server/src/index.js';
import { listAll } from '../../../../templates/k8s-lease-client/src/runtime/watch/list-all.js';
import type { ListAllOptions } from '../../../../templates/k8s-lease-client/src/runtime/watch/list-all.js';
import { rejectionOf } from '../../../helpers/rejection.js';

const PATH = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
type Named = { metadata: { name: string; resourceVersion?: string } };

let server: LeaseApiServer;
let client: Client;

beforeEach(async () => {
  server = await startLeaseApiServer({ port: 0 });
  client = createClient({ baseUrl: server.url });
  for (let i = 0; i < 7; i++) {
    const created = server.store.create({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: `l${i}`, namespace: 'default', labels: { even: String(i % 2 === 0) } },
      spec: { holderIdentity: 'x' },
    });
    if (!created.ok) throw new Error('seed failed');
  }
});
afterEach(async () => {
  await server.close();
});

async function names(options: ListAllOptions, query?: Record<string, string>): Promise<string[]> {
  const out: string[] = [];
  for await (const item of listAll<Named>(client, { path: PATH, query }, options)) out.push(item.metadata.name);
  return out;
}

/** After the first page: a write, then a compaction, so the first page's continue token has expired. */
function expireAfterFirstPage(): ListAllOptions['onPage'] {
  let pages = 0;
  return () => {
    if (++pages !== 1) return;
    server.store.delete('default', 'l6');
    server.store.compact();
  };
}

describe('listAll against the Lease API server', () => {
  it('pages with limit/continue and reports every page', async () => {
    const pages: unknown[] = [];
    const result = await names({
      limit: 3,
      onPage: (info) => pages.push({ ...info, continue: info.continue === undefined ? undefined : 'token' }),
    });
    expect(result).toEqual(['l0', 'l1', 'l2', 'l3', 'l4', 'l5', 'l6']);
    expect(pages).toEqual([
      { items: 3, continue: 'token', resourceVersion: '8' },
      { items: 3, continue: 'token', resourceVersion: '8' },
      { items: 1, continue: undefined, resourceVersion: '8' },
    ]);
    const listRequests = server.requests().filter((r) => r.method === 'GET');
    expect(listRequests).toHaveLength(3);
  });

  it('keeps the selectors on every page, and a limit of 0 sends one unpaged request', async () => {
    expect(await names({ limit: 1 }, { labelSelector: 'even=true' })).toEqual(['l0', 'l2', 'l4', 'l6']);
    server.clearRequests();
    expect(await names({ limit: 0 })).toHaveLength(7);
    expect(server.requests()).toHaveLength(1);
  });

  it("onExpired 'restart' (default) lists again from scratch and says so; items may repeat", async () => {
    const expiries: unknown[] = [];
    const result = await names({
      limit: 2,
      onPage: expireAfterFirstPage(),
      onExpiredContinue: (info) => expiries.push(info),
    });
    expect(expiries).toEqual([{ mode: 'restart' }]);
    expect(result).toEqual(['l0', 'l1', 'l0', 'l1', 'l2', 'l3', 'l4', 'l5']);
  });

  it("onExpired 'continue' goes on with the token from the 410 Status (inconsistent, as documented) and says so", async () => {
    const expiries: Array<{ mode: string; token?: string }> = [];
    const result = await names({
      limit: 2,
      onExpired: 'continue',
      onPage: expireAfterFirstPage(),
      onExpiredContinue: (info) => expiries.push(info),
    });
    expect(expiries).toHaveLength(1);
    expect(expiries[0]?.mode).toBe('continue');
    expect(expiries[0]?.token).toMatch(/.+/);
    // l6 was deleted after the first page: the continued list comes from the newer snapshot.
    expect(result).toEqual(['l0', 'l1', 'l2', 'l3', 'l4', 'l5']);
  });

  it('other errors reject the iteration', async () => {
    const error = await rejectionOf(names({}, { labelSelector: '!!!' }));
    expect(error).toBeInstanceOf(KubernetesApiError);
    expect((error as KubernetesApiError).status).toBe(400);
  });

  it('an abort rejects with the reason (a cut-short list must not look complete)', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const error = await rejectionOf(
      names({ limit: 2, signal: controller.signal, onPage: () => controller.abort(reason) }),
    );
    expect(error).toBe(reason);
  });

  it('validates its options', () => {
    expect(() => listAll(client, { path: PATH }, { limit: -1 })).toThrow(RangeError);
    expect(() => listAll(client, { path: PATH }, { onExpired: 'maybe' as 'restart' })).toThrow(TypeError);
  });
});

describe('listAll edge cases (scripted client)', () => {
  function scripted(responses: Array<unknown | KubernetesApiError>): { client: Client; specs: RequestSpec[] } {
    const specs: RequestSpec[] = [];
    const fake: Client = {
      baseUrl: 'http://fake',
      async request<T>(spec: RequestSpec): Promise<T> {
        specs.push(spec);
        const next = responses.shift();
        if (next instanceof Error) throw next;
        return next as T;
      },
    };
    return { client: fake, specs };
  }
  const gone = (body: Record<string, unknown>): KubernetesApiError =>
    new KubernetesApiError({
      status: 410,
      method: 'GET',
      url: 'http://fake/x',
      statusObject: { kind: 'Status', code: 410, reason: 'Expired', ...body },
    });

  it("'continue' without a token in the 410 falls back to a restart and says so", async () => {
    const { client: fake, specs } = scripted([
      { metadata: { resourceVersion: '5', continue: 'c1' }, items: [{ metadata: { name: 'a' } }] },
      gone({}),
      { metadata: { resourceVersion: '9' }, items: [{ metadata: { name: 'a' } }, { metadata: { name: 'b' } }] },
    ]);
    const expiries: unknown[] = [];
    const out: string[] = [];
    for await (const item of listAll<Named>(
      fake,
      { path: '/x', query: { resourceVersion: '0' } },
      { onExpired: 'continue', onExpiredContinue: (i) => expiries.push(i) },
    ))
      out.push(item.metadata.name);
    expect(out).toEqual(['a', 'a', 'b']);
    expect(expiries).toEqual([{ mode: 'restart' }]);
    // resourceVersion is dropped when a continue token is sent (the server rejects both together).
    expect(specs.map((s) => s.query)).toEqual([
      '?resourceVersion=0&limit=500',
      '?limit=500&continue=c1',
      '?resourceVersion=0&limit=500',
    ]);
  });

  it('a 410 on the first page (no continue token involved) is thrown', async () => {
    const { client: fake } = scripted([gone({})]);
    const error = await rejectionOf(
      (async () => {
        for await (const _ of listAll(fake, { path: '/x' })) void _;
      })(),
    );
    expect(error).toMatchObject({ status: 410 });
  });

  it('null items are an empty page', async () => {
    const { client: fake } = scripted([{ metadata: { resourceVersion: '1' }, items: null }]);
    const out: unknown[] = [];
    for await (const item of listAll(fake, { path: '/x' })) out.push(item);
    expect(out).toEqual([]);
  });
});
