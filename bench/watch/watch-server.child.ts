/**
 * Child process of the watch benchmark (started by watch.bench.ts): a
 * loopback `node:http` server that answers a `watch=true` GET of
 * WATCH_PATH with a precomputed newline-delimited JSON stream, chunked as a
 * real API server sends it, and ends the response after the last event.
 * The bytes are built once at start-up and written in ≥ 1 MiB chunks
 * (whole lines, honouring backpressure), so the server costs next to nothing
 * per stream and is never what the clients wait for.
 *
 *   argv[2]: events of the measured stream; argv[3]: events of the warm-up stream
 *   GET WATCH_PATH?watch=true[&labelSelector=bench-warmup] → 200 the stream
 *   anything else → a Kubernetes Status (400 / 404)
 */

import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendFailureStatus } from '../lib/status-response.js';
import {
  buildWatchStream,
  WARMUP_SELECTOR,
  WATCH_PATH,
  type WatchServerMessage,
  type WatchStream,
} from './watch-stream.js';

const events = Number(process.argv[2]);
const warmupEvents = Number(process.argv[3]);
if (!Number.isSafeInteger(events) || events <= 0 || !Number.isSafeInteger(warmupEvents) || warmupEvents <= 0) {
  throw new Error(`usage: watch-server.child.ts <events> <warm-up events> (got ${process.argv.slice(2).join(' ')})`);
}
const measured = buildWatchStream(events);
const warmup = buildWatchStream(warmupEvents);

/** Writes every chunk (no content-length: chunked transfer encoding), waiting for 'drain' when the socket is full, then ends the response. */
function serve(res: ServerResponse, stream: WatchStream): void {
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache, private' });
  let next = 0;
  const pump = (): void => {
    while (next < stream.chunks.length) {
      if (!res.write(stream.chunks[next++])) {
        res.once('drain', pump);
        return;
      }
    }
    res.end();
  };
  res.on('close', () => res.removeListener('drain', pump));
  pump();
}

const server = createServer((req, res) => {
  req.resume();
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (req.method !== 'GET' || url.pathname !== WATCH_PATH) {
    sendFailureStatus(res, 404, 'NotFound', `${req.method ?? ''} ${url.pathname} not found`);
  } else if (url.searchParams.get('watch') !== 'true') {
    sendFailureStatus(res, 400, 'BadRequest', 'this server only answers watches (watch=true)');
  } else {
    serve(res, url.searchParams.get('labelSelector') === WARMUP_SELECTOR ? warmup : measured);
  }
});

function send(message: WatchServerMessage): void {
  process.send?.(message);
}

// The parent going away (normally or not) ends the server.
process.on('disconnect', () => process.exit(0));

server.listen(0, '127.0.0.1', () => {
  send({
    type: 'listening',
    port: (server.address() as AddressInfo).port,
    events: measured.events,
    bytes: measured.bytes,
    lastResourceVersion: measured.lastResourceVersion,
    warmupEvents: warmup.events,
  });
});
