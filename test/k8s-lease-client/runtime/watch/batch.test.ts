import { describe, expect, it } from 'vitest';
import { Batch, flattenBatches } from '../../../../templates/k8s-lease-client/src/runtime/watch/batch.js';
import type { WatchNotification } from '../../../../templates/k8s-lease-client/src/runtime/watch/event-shape.js';

type Obj = { name: string };
const added = (name: string): WatchNotification<Obj> => ({ type: 'ADDED', object: { name } });
const resync: WatchNotification<Obj> = { type: 'RESYNC', objects: [], resourceVersion: '9', reason: 'Expired' };

/** A driver that yields `items` and records how far the consumer made it run. */
function driver(items: Array<WatchNotification<Obj> | Batch<Obj>>) {
  const log: string[] = [];
  async function* run(): AsyncGenerator<WatchNotification<Obj> | Batch<Obj>, void, undefined> {
    try {
      for (const [i, item] of items.entries()) {
        yield item;
        log.push(`resumed after ${i}`);
      }
    } finally {
      log.push('closed');
    }
  }
  return { generator: run(), log };
}

const names = (n: WatchNotification<Obj>): string => (n.type === 'RESYNC' ? 'RESYNC' : n.object.name);

async function take(iterator: AsyncIterator<WatchNotification<Obj>>, count = Infinity): Promise<string[]> {
  const taken: string[] = [];
  while (taken.length < count) {
    const result = await iterator.next();
    if (result.done === true) break;
    taken.push(names(result.value));
  }
  return taken;
}

describe('flattenBatches: a batch’s events one by one, other notifications as they come', () => {
  it('hands out every event in order, skipping empty batches', async () => {
    const { generator } = driver([new Batch([added('a'), added('b')]), new Batch([]), resync, new Batch([added('c')])]);
    expect(await take(flattenBatches(generator, undefined))).toEqual(['a', 'b', 'RESYNC', 'c']);
  });

  it('resumes the driver only once the consumer has taken the whole batch', async () => {
    const { generator, log } = driver([new Batch([added('a'), added('b'), added('c')]), new Batch([added('d')])]);
    const iterator = flattenBatches(generator, undefined);
    expect(await take(iterator, 3)).toEqual(['a', 'b', 'c']);
    expect(log).toEqual([]);
    expect(await take(iterator, 1)).toEqual(['d']);
    expect(log).toEqual(['resumed after 0']);
  });

  it('ends between two events of a batch once the signal aborted, and closes the driver', async () => {
    const controller = new AbortController();
    const { generator, log } = driver([new Batch([added('a'), added('b')]), new Batch([added('c')])]);
    const iterator = flattenBatches(generator, controller.signal);
    expect(await take(iterator, 1)).toEqual(['a']);
    controller.abort();
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
    expect(log).toEqual(['closed']);
  });

  it('return() (a break in for-await) closes the driver and drops what was buffered', async () => {
    const { generator, log } = driver([new Batch([added('a'), added('b')])]);
    const iterator = flattenBatches(generator, undefined);
    await take(iterator, 1);
    expect(await iterator.return?.()).toEqual({ value: undefined, done: true });
    expect(log).toEqual(['closed']);
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });
});
