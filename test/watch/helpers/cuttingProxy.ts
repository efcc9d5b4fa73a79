// A TCP proxy that breaks connections in the middle of a watch stream: after a random number of
// watch events (counted by the `{"type":"` that starts each line) it forwards part of the next
// line and destroys both sockets, as a load balancer or a dying node would.
import { connect, createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

const MARK = Buffer.from('{"type":"');

export interface CuttingProxyOptions {
  upstreamHost: string;
  upstreamPort: number;
  random: () => number;
  /** Events per connection before the cut: uniformly within [minEvents, maxEvents]. */
  minEvents: number;
  maxEvents: number;
  onCut?: (cutNumber: number) => void;
}

export interface CuttingProxy {
  readonly url: string;
  cuts(): number;
  /** Stops cutting (connections made afterwards are left alone). */
  disarm(): void;
  close(): Promise<void>;
}

export async function startCuttingProxy(options: CuttingProxyOptions): Promise<CuttingProxy> {
  const sockets = new Set<Socket>();
  let cuts = 0;
  let armed = true;
  const server = createServer((client) => {
    const upstream = connect(options.upstreamPort, options.upstreamHost);
    sockets.add(client);
    sockets.add(upstream);
    const budget = options.minEvents + Math.floor(options.random() * (options.maxEvents - options.minEvents + 1));
    const cutting = armed;
    let counted = 0;
    let done = false;
    const destroyBoth = (): void => {
      done = true;
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk: Buffer) => upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => {
      if (done) return;
      if (cutting && armed) {
        for (let at = chunk.indexOf(MARK); at !== -1; at = chunk.indexOf(MARK, at + 1)) {
          if (++counted <= budget) continue;
          // Mid-line: the start of this event and a few bytes of it, then nothing.
          const cutAt = Math.min(chunk.length, at + 1 + Math.floor(options.random() * 40));
          client.write(chunk.subarray(0, cutAt), () => {
            destroyBoth();
          });
          done = true;
          options.onCut?.(++cuts);
          return;
        }
      }
      client.write(chunk);
    });
    for (const socket of [client, upstream]) {
      socket.on('error', destroyBoth);
      socket.on('close', () => {
        sockets.delete(socket);
        destroyBoth();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    cuts: () => cuts,
    disarm: () => {
      armed = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** mulberry32: small, seeded, good enough to make a failing run reproducible. */
export function seededRandom(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
