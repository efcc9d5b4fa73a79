/**
 * Child process of the `server-scale` benchmark: `watchers` watch streams of
 * the Lease namespace, from one resourceVersion on, over plain node:http (one
 * connection each), in one process apart from the server's. It counts events
 * by their newline and never parses them: what it costs should not pace the
 * server. For the lag it reads the written-at annotation of the first event
 * in every chunk (the one that waited longest), against its own clock.
 * Compiled to bench/.build/ to run on bare node.
 *
 *   argv[2]: a WatchersConfig as JSON
 *   parent → child: { type: 'go' } when the writes start (the stall clock starts then)
 */
import { field } from '../lib/field.js';
import { request, type IncomingMessage } from 'node:http';
import { LEASES_PATH, WRITTEN_AT, type WatchersConfig, type WatchersMessage } from './server-scale.js';

const config = JSON.parse(process.argv[2] ?? 'null') as WatchersConfig | null;
if (config === null) throw new Error('usage: server-scale-watchers.child.mjs <WatchersConfig as JSON>');
const send = (message: WatchersMessage): void => void process.send?.(message);

const MARKER = Buffer.from(`"${WRITTEN_AT}":"`);
const NEWLINE = 0x0a;
const QUOTE = 0x22;
const expected = config.watchers * config.events;

let deliveries = 0;
let ready = 0;
let ended = 0;
let firstEvent = 0;
let lastEvent = 0;
let maxLagMs = 0;
let finished = false;
let stallTimer: NodeJS.Timeout | undefined;
const responses: IncomingMessage[] = [];

function finish(): void {
  if (finished) return;
  finished = true;
  clearTimeout(stallTimer);
  const seconds = lastEvent > firstEvent ? (lastEvent - firstEvent) / 1000 : 0;
  send({ type: 'done', deliveries, seconds, maxLagMs, ended });
  for (const response of responses) response.destroy();
}

function armStall(): void {
  clearTimeout(stallTimer);
  stallTimer = setTimeout(finish, config?.stallMs ?? 10_000);
}

function lagOf(chunk: Buffer, now: number): number {
  const at = chunk.indexOf(MARKER);
  if (at === -1) return 0;
  const start = at + MARKER.length;
  const end = chunk.indexOf(QUOTE, start);
  if (end === -1) return 0;
  const written = Number(chunk.toString('latin1', start, end));
  return Number.isFinite(written) ? now - written : 0;
}

function onChunk(chunk: Buffer): void {
  const now = Date.now();
  let lines = 0;
  for (let i = chunk.indexOf(NEWLINE); i !== -1; i = chunk.indexOf(NEWLINE, i + 1)) lines++;
  if (lines === 0) return;
  if (firstEvent === 0) firstEvent = now;
  lastEvent = now;
  deliveries += lines;
  maxLagMs = Math.max(maxLagMs, lagOf(chunk, now));
  armStall();
  if (deliveries >= expected) finish();
}

const query = `?watch=true&resourceVersion=${encodeURIComponent(config.resourceVersion)}`;
for (let w = 0; w < config.watchers; w++) {
  const req = request(`${config.baseUrl}${LEASES_PATH}${query}`, { agent: false }, (res) => {
    if (res.statusCode !== 200) throw new Error(`watch ${w}: status ${String(res.statusCode)}`);
    responses.push(res);
    res.on('data', onChunk);
    res.once('close', () => {
      if (!finished) ended++;
    });
    if (++ready === config.watchers) send({ type: 'ready' });
  });
  req.end();
}

process.on('message', (message: unknown) => {
  if (field(message, 'type') === 'go') armStall();
});
process.on('disconnect', () => process.exit(0));
