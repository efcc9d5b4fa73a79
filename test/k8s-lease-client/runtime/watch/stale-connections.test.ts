import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../../templates/k8s-lease-client/src/runtime/transport.js';
import { WatchClosedError } from '../../../../templates/k8s-lease-client/src/runtime/watch/errors.js';
import { watch } from '../../../../templates/k8s-lease-client/src/runtime/watch/watch.js';
import type { WatchDisconnectInfo } from '../../../../templates/k8s-lease-client/src/runtime/watch/watch-options.js';
import { startLoopback } from '../../../helpers/loopback.js';
import type { Loopback } from '../../../helpers/loopback.js';
import { rejectionOf } from '../../../helpers/rejection.js';
import { consume, recordingSleep } from './helpers/collect.js';
import { bookmarkObject, leaseOf } from './helpers/fault-server.js';
import { LEASES_PATH } from './helpers/lease-server.js';
import type { Lease } from './helpers/lease-server.js';

// A server whose watch connections each bring nothing new and end cleanly at once must be backed off from, as
// client-go's reflector backs off a watch that received nothing (tools/cache/reflector.go handleAnyWatch,
// VeryShortWatchError, and the delayHandler's exponential backoff): no reconnect storm.

const target = { path: LEASES_PATH };
/** Connections after which the server stops the test: without backoff the watch would reconnect forever. */
const STORM = 50;

let server: Loopback;
let storm: AbortController;
beforeEach(async () => {
  server = await startLoopback();
  storm = new AbortController();
});
afterEach(async () => {
  storm.abort();
  await server.close();
});

/** Every watch connection sends `lines` and ends cleanly; past STORM connections the watch is stopped. */
function serveEveryConnection(lines: readonly unknown[]): void {
  server.handler = (_request, res) => {
    if (server.requests.length > STORM) storm.abort();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  };
}

describe('watch connections that end cleanly without progress back off', () => {
  it.each([
    ['an already-seen event (the resume point itself)', [{ type: 'MODIFIED', object: leaseOf('a', '10') }]],
    [
      'older events',
      [
        { type: 'ADDED', object: leaseOf('a', '3') },
        { type: 'MODIFIED', object: leaseOf('b', '9') },
      ],
    ],
    ['a bookmark that does not move the resume point', [{ type: 'BOOKMARK', object: bookmarkObject(10) }]],
    ['nothing at all', []],
  ])('each connection sends %s: delays double, and the watch gives up after maxRetries', async (_name, lines) => {
    serveEveryConnection(lines);
    const client = createClient({ baseUrl: server.baseUrl });
    const { sleep, delays } = recordingSleep();
    const disconnects: WatchDisconnectInfo[] = [];
    const error = await rejectionOf(
      consume(
        watch<Lease>(client, target, {
          resourceVersion: '10',
          signal: storm.signal,
          sleep,
          reconnect: { maxRetries: 5, jitter: 0 },
          onDisconnect: (info) => disconnects.push(info),
        }),
        () => false,
      ),
    );
    expect(storm.signal.aborted, `reconnected ${server.requests.length} times without backing off`).toBe(false);
    expect(error).toBeInstanceOf(WatchClosedError);
    expect(delays).toEqual([200, 400, 800, 1600, 3200]);
    expect(disconnects.map((d) => d.attempt)).toEqual([1, 2, 3, 4, 5]);
    expect(server.requests).toHaveLength(6);
  });

  it('a connection that does bring something new resets the backoff (and reconnects at once)', async () => {
    let connection = 0;
    server.handler = (_request, res) => {
      connection++;
      if (server.requests.length > STORM) storm.abort();
      res.writeHead(200, { 'content-type': 'application/json' });
      // Every third connection brings a newer version of `a`; the others only replay it.
      const rv = 10 + Math.floor(connection / 3);
      res.end(`${JSON.stringify({ type: 'MODIFIED', object: leaseOf('a', String(rv)) })}\n`);
    };
    const client = createClient({ baseUrl: server.baseUrl });
    const { sleep, delays } = recordingSleep();
    const seen = await consume(
      watch<Lease>(client, target, { resourceVersion: '10', signal: storm.signal, sleep, reconnect: { jitter: 0 } }),
      (events) => events.length === 3,
    );
    expect(seen).toEqual(['MODIFIED a@11', 'MODIFIED a@12', 'MODIFIED a@13']);
    // Two replays in a row back off (200, 400) before each new event; the new one resets the count.
    expect(delays).toEqual([200, 400, 200, 400, 200, 400]);
  });
});
