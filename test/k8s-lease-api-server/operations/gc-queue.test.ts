// The garbage collector's work queue: client-go workqueue's de-duplication, first in first out.
import { describe, expect, it } from 'vitest';
import { WorkQueue } from '../../../templates/k8s-lease-api-server/src/operations/gc-queue.js';

describe('WorkQueue', () => {
  it('hands keys out oldest first, each waiting key once', () => {
    const queue = new WorkQueue();
    for (const key of ['a', 'b', 'a', 'c', 'b']) queue.add(key);
    expect(queue.size).toBe(3);
    expect([queue.take(), queue.take()]).toEqual(['a', 'b']);
    queue.add('a');
    expect([queue.take(), queue.take(), queue.take()]).toEqual(['c', 'a', undefined]);
    expect(queue.size).toBe(0);
  });

  it('keeps order through a long run of adds and takes', () => {
    const queue = new WorkQueue();
    const taken: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      queue.add(`k${i}`);
      if (i % 3 === 0) taken.push(queue.take() ?? '');
    }
    for (let key = queue.take(); key !== undefined; key = queue.take()) taken.push(key);
    expect(taken).toEqual(Array.from({ length: 10_000 }, (_, i) => `k${i}`));
  });
});
