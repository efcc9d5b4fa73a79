// Volume smoke tests: many sequential reads and a long watch stay correct. Speed is measured by the
// benchmarks (bench/, ratios in one run), never by a timed assertion here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import { NS_BASE, start } from './helpers.js';

describe('performance smoke', () => {
  let server: LeaseApiServer;
  beforeAll(async () => {
    server = await start();
    server.store.create({ metadata: { name: 'hot', namespace: 'default' }, spec: { holderIdentity: 'h' } });
  });
  afterAll(() => server.close());

  it('answers 5,000 sequential GETs, each with the Lease', async () => {
    let answered = 0;
    for (let i = 0; i < 5000; i++) {
      const res = await fetch(`${server.url}${NS_BASE}/hot`);
      const body = (await res.json()) as { metadata?: { name?: string } };
      if (res.status === 200 && body.metadata?.name === 'hot') answered++;
    }
    expect(answered).toBe(5000);
  });

  it('streams 20,000 watch events in order', async () => {
    const total = 20_000;
    const controller = new AbortController();
    const res = await fetch(`${server.url}${NS_BASE}?watch=true&resourceVersion=${server.store.resourceVersion}`, {
      signal: controller.signal,
    });
    const reader = res.body?.getReader();
    const decoder = new TextDecoder();
    let lines = 0;
    let last = '';
    const received = (async () => {
      let tail = '';
      while (reader !== undefined && lines < total) {
        const { done, value } = await reader.read();
        if (done) break;
        const text = tail + decoder.decode(value, { stream: true });
        const parts = text.split('\n');
        tail = parts.pop() ?? '';
        lines += parts.length;
        last = parts[parts.length - 1] ?? last;
      }
    })();
    for (let i = 0; i < total; i++) {
      server.store.update({
        metadata: { name: 'hot', namespace: 'default' },
        spec: { holderIdentity: 'h', leaseTransitions: i + 1 },
      });
      if (i % 2000 === 0) await new Promise((r) => setImmediate(r));
    }
    await received;
    controller.abort();
    expect(lines).toBe(total);
    expect(JSON.parse(last).object.spec.leaseTransitions).toBe(total);
  });
});
