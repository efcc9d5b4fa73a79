// A LIST answered with JSON that is not a list (a proxy's page, a wrong baseUrl) fails with a typed error that
// says what came instead, and a watch does not retry it: the same request would get the same answer.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnexpectedResponseError } from '../../../../templates/k8s-lease-client/src/runtime/errors.js';
import { createClient } from '../../../../templates/k8s-lease-client/src/runtime/transport.js';
import { listAll } from '../../../../templates/k8s-lease-client/src/runtime/watch/list-all.js';
import { watch } from '../../../../templates/k8s-lease-client/src/runtime/watch/watch.js';
import type { WatchDisconnectInfo } from '../../../../templates/k8s-lease-client/src/runtime/watch/watch-options.js';
import { jsonHandler, startLoopback } from '../../../helpers/loopback.js';
import type { Loopback } from '../../../helpers/loopback.js';
import { consume } from './helpers/collect.js';
import { rejectionOf } from '../../../helpers/rejection.js';
import type { Lease } from './helpers/lease-server.js';

const PATH = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
let loopback: Loopback;

beforeEach(async () => {
  loopback = await startLoopback();
});
afterEach(async () => {
  await loopback.close();
});

const bodies: Array<[string, string, string]> = [
  ['a JSON string (an HTML page quoted by a proxy)', '"<html>login</html>"', 'string'],
  ['a number', '42', 'number'],
  ['null', 'null', 'null'],
  ['an array', '[{"metadata":{"name":"a"}}]', 'array'],
  ['an object whose items is not an array', '{"kind":"LeaseList","items":{"a":1}}', 'object with non-array items'],
];

describe('a LIST response that is not a list', () => {
  it.each(bodies)(
    '%s: listAll rejects with UnexpectedResponseError (kind notAList, received %j)',
    async (_name, body, received) => {
      loopback.handler = jsonHandler(200, body);
      const client = createClient({ baseUrl: loopback.baseUrl });
      const error = await rejectionOf(
        (async () => {
          for await (const _item of listAll(client, { path: PATH })) void _item;
        })(),
      );
      expect(error).toBeInstanceOf(UnexpectedResponseError);
      expect(error).toMatchObject({
        name: 'UnexpectedResponseError',
        kind: 'notAList',
        received,
        method: 'GET',
        url: `${loopback.baseUrl}${PATH}?limit=500`,
      });
      expect((error as Error).message).toBe(
        `GET ${PATH}?limit=500: LIST response is not a list object: got ${received}`,
      );
      // Not an HTTP status error: no status, rather than one with another meaning.
      expect((error as { status?: unknown }).status).toBeUndefined();
    },
  );

  it('a watch ends with it at once, without a retry', async () => {
    loopback.handler = jsonHandler(200, '"not a list"');
    const client = createClient({ baseUrl: loopback.baseUrl });
    const disconnects: WatchDisconnectInfo[] = [];
    const error = await rejectionOf(
      consume(watch<Lease>(client, { path: PATH }, { onDisconnect: (info) => disconnects.push(info) }), () => false),
    );
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(disconnects).toEqual([]);
    expect(loopback.requests).toHaveLength(1);
  });

  it('an empty list (items null or absent) is a list', async () => {
    for (const body of ['{"metadata":{"resourceVersion":"5"},"items":null}', '{"metadata":{"resourceVersion":"5"}}']) {
      loopback.handler = jsonHandler(200, body);
      const client = createClient({ baseUrl: loopback.baseUrl });
      const items: unknown[] = [];
      for await (const item of listAll(client, { path: PATH })) items.push(item);
      expect(items).toEqual([]);
    }
  });
});
