// The parse workers' seats, shared between flows as API Priority and Fairness's queueset shares a priority
// level's seats (k8s.io/apiserver/pkg/util/flowcontrol/fairqueuing/queueset/queueset.go: a free seat goes to
// the queue whose next request has the earliest virtual start, findDispatchQueueToBoundLocked; a request
// whose queue is at queueLengthLimit is rejected, rejectOrEnqueueToBoundLocked).
import { describe, expect, it } from 'vitest';
import type { FairQueueLimits, Release } from '../../../templates/k8s-lease-api-server/src/decode/fair-queue.js';
import { FairQueue } from '../../../templates/k8s-lease-api-server/src/decode/fair-queue.js';

const ONE_SEAT: FairQueueLimits = { seats: 1, seatsPerFlow: 1, waitingPerFlow: 3, waitingTotal: 10 };

/** Queues `flow`'s request and records, once it is given its seat, its name in `order`. */
function enqueue(queue: FairQueue, flow: string, name: string, order: string[]): Promise<Release> | undefined {
  return queue.acquire(flow)?.then((release) => {
    order.push(name);
    return release;
  });
}

/** Lets the seats' promises settle. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('FairQueue', () => {
  it("gives a newcomer's request the next seat, ahead of another flow's backlog", async () => {
    const queue = new FairQueue(ONE_SEAT);
    const order: string[] = [];
    const running = await enqueue(queue, 'a', 'a0', order);
    const backlog = [1, 2, 3].map((i) => enqueue(queue, 'a', `a${i}`, order));
    const newcomer = enqueue(queue, 'b', 'b0', order);
    expect(queue.load).toEqual({ running: 1, waiting: 4 });
    running?.();
    await settle();
    expect(order).toEqual(['a0', 'b0']);
    (await newcomer)?.();
    for (const waiting of backlog) (await waiting)?.();
    expect(order).toEqual(['a0', 'b0', 'a1', 'a2', 'a3']);
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
  });

  it('alternates between flows that both have backlogs', async () => {
    const queue = new FairQueue(ONE_SEAT);
    const order: string[] = [];
    const first = await enqueue(queue, 'a', 'a0', order);
    // Each seat is given back as soon as it is taken: the order is the dispatch order.
    const served = (flow: string, name: string): Promise<void> | undefined =>
      enqueue(queue, flow, name, order)?.then((release) => release());
    const pending = [...[1, 2, 3].map((i) => served('a', `a${i}`)), ...[0, 1, 2].map((i) => served('b', `b${i}`))];
    first?.();
    await Promise.all(pending);
    expect(order).toEqual(['a0', 'b0', 'a1', 'b1', 'a2', 'b2', 'a3']);
  });

  it("refuses a request whose flow's queue is full, while other flows still queue", async () => {
    const queue = new FairQueue(ONE_SEAT);
    const order: string[] = [];
    await enqueue(queue, 'a', 'a0', order);
    for (let i = 1; i <= ONE_SEAT.waitingPerFlow; i++) expect(enqueue(queue, 'a', `a${i}`, order)).toBeDefined();
    expect(queue.acquire('a')).toBeUndefined();
    expect(queue.acquire('b')).toBeDefined();
  });

  it('bounds the waiting requests of all flows together', () => {
    const queue = new FairQueue({ seats: 1, seatsPerFlow: 1, waitingPerFlow: 2, waitingTotal: 3 });
    expect(queue.acquire('a')).toBeDefined();
    expect(queue.acquire('a')).toBeDefined();
    expect(queue.acquire('b')).toBeDefined();
    expect(queue.acquire('c')).toBeDefined();
    expect(queue.acquire('d')).toBeUndefined();
    expect(queue.load).toEqual({ running: 1, waiting: 3 });
  });

  it('keeps a flow to its own seats, so a second flow is served at once', async () => {
    const queue = new FairQueue({ seats: 2, seatsPerFlow: 1, waitingPerFlow: 4, waitingTotal: 8 });
    const order: string[] = [];
    await enqueue(queue, 'a', 'a0', order);
    const waiting = enqueue(queue, 'a', 'a1', order);
    await enqueue(queue, 'b', 'b0', order);
    expect(order).toEqual(['a0', 'b0']);
    expect(queue.load).toEqual({ running: 2, waiting: 1 });
    expect(waiting).toBeDefined();
  });

  it('takes a seat given back twice as given back once', async () => {
    const queue = new FairQueue(ONE_SEAT);
    const release = await queue.acquire('a');
    release?.();
    release?.();
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
    const again = await queue.acquire('b');
    expect(queue.load).toEqual({ running: 1, waiting: 0 });
    again?.();
  });
});
