// Throughput of the watch decoder against the floor (fetch + TextDecoder + split + JSON.parse).
// Run: npx tsx test/watch/helpers/bench-ndjson.ts [events]
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readNdjson } from '../../../templates/runtime/watch/ndjson.js';
import { watch } from '../../../templates/runtime/watch/watch.js';
import { createClient } from '../../../templates/runtime/transport.js';

const events = Number(process.argv[2] ?? 200_000);
const lines: string[] = [];
for (let i = 0; i < 1000; i++) {
  lines.push(
    JSON.stringify({
      type: 'MODIFIED',
      object: {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: {
          name: `lease-${i % 200}`,
          namespace: 'kube-system',
          uid: '6c9f1b62-0b7a-4c9e-9d0f-5f8e6f4f7c3a',
          resourceVersion: '0',
          creationTimestamp: '2024-05-01T12:00:00Z',
          labels: { app: 'controller', tier: 'control-plane', 'ü': '😀' },
          managedFields: [{ manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'coordination.k8s.io/v1', time: '2024-05-01T12:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:holderIdentity': {}, 'f:leaseDurationSeconds': {}, 'f:renewTime': {} } } }],
        },
        spec: { holderIdentity: `node-${i}_1f7c9e3a-5b2d-4e8f-a6c1-9d3b7e5f2a8c`, leaseDurationSeconds: 15, acquireTime: '2024-05-01T12:00:00.000000Z', renewTime: '2024-05-01T12:00:00.123456Z', leaseTransitions: 7 },
      },
    }),
  );
}
let body = '';
const parts: Buffer[] = [];
for (let i = 0; i < events; i++) {
  const line = (lines[i % lines.length] ?? '').replace('"resourceVersion":"0"', `"resourceVersion":"${1000 + i}"`);
  body += `${line}\n`;
  if (body.length > 1 << 20) {
    parts.push(Buffer.from(body));
    body = '';
  }
}
parts.push(Buffer.from(body));
const total = parts.reduce((n, p) => n + p.length, 0);

const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  let i = 0;
  const pump = (): void => {
    while (i < parts.length) {
      if (!res.write(parts[i++])) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

async function floor(): Promise<number> {
  const response = await fetch(`${url}/x`);
  const decoder = new TextDecoder();
  let buffer = '';
  let n = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    const split = buffer.split('\n');
    buffer = split.pop() ?? '';
    for (const line of split) {
      if (line !== '') {
        JSON.parse(line);
        n++;
      }
    }
  }
  return n;
}

async function decoder(): Promise<number> {
  const response = await fetch(`${url}/x`);
  let n = 0;
  for await (const _ of readNdjson(response.body as ReadableStream<Uint8Array>)) n++;
  return n;
}

const client = createClient({ baseUrl: url });
async function watcher(): Promise<number> {
  let n = 0;
  for await (const _ of watch(client, { path: '/x' }, { resourceVersion: '1', reconnect: false })) n++;
  return n;
}

async function textSplit(): Promise<number> {
  const response = await fetch(`${url}/x`);
  const text = await response.text();
  let n = 0;
  for (const line of text.split('\n')) {
    if (line !== '') {
      JSON.parse(line);
      n++;
    }
  }
  return n;
}

async function readOnly(): Promise<number> {
  const response = await fetch(`${url}/x`);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  let n = 0;
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    for (let i = chunk.value.indexOf(10); i !== -1; i = chunk.value.indexOf(10, i + 1)) n++;
  }
  return n;
}

const runs: Record<string, () => Promise<number>> = { floor, 'text+split': textSplit, 'bytes only': readOnly, readNdjson: decoder, watch: watcher };
const best: Record<string, number> = {};
for (let round = 0; round < 5; round++) {
  for (const [name, run] of Object.entries(runs)) {
    const start = performance.now();
    const n = await run();
    const ms = performance.now() - start;
    if (n !== events) throw new Error(`${name}: ${n} events`);
    best[name] = Math.min(best[name] ?? Infinity, ms);
  }
}
console.log(`${events} events, ${(total / 1e6).toFixed(1)} MB`);
for (const [name, ms] of Object.entries(best)) {
  console.log(`${name.padEnd(12)} ${ms.toFixed(0).padStart(6)} ms  ${((total / 1e6) / (ms / 1000)).toFixed(0)} MB/s  ${((best['floor'] ?? ms) / ms).toFixed(2)}x floor`);
}
server.close();
