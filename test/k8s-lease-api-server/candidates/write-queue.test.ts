// The election controller's queue of writes waiting for a background slice
// (templates/k8s-lease-api-server/src/candidates/write-queue.ts): first in, first out, each run once, and per
// Lease whether some write of its own is still queued (the driver does not reconcile that Lease meanwhile).
import { describe, expect, it } from 'vitest';
import { WriteQueue } from '../../../templates/k8s-lease-api-server/src/candidates/write-queue.js';

describe('WriteQueue', () => {
  it('runs the writes in the order they were queued, each once', () => {
    const queue = new WriteQueue();
    const ran: string[] = [];
    queue.push('default/a', () => ran.push('a1'));
    queue.push(undefined, () => ran.push('gc'));
    queue.push('default/a', () => ran.push('a2'));
    expect(queue.empty).toBe(false);
    while (!queue.empty) queue.runNext();
    queue.runNext();
    expect(ran).toEqual(['a1', 'gc', 'a2']);
  });

  it('holds a Lease while any of its writes is queued, and releases it after the last', () => {
    const queue = new WriteQueue();
    queue.push('default/a', () => undefined);
    queue.push('default/b', () => undefined);
    queue.push('default/a', () => undefined);
    expect([queue.holds('default/a'), queue.holds('default/b'), queue.holds('default/c')]).toEqual([true, true, false]);
    queue.runNext();
    expect(queue.holds('default/a')).toBe(true);
    queue.runNext();
    expect(queue.holds('default/b')).toBe(false);
    queue.runNext();
    expect(queue.holds('default/a')).toBe(false);
    expect(queue.empty).toBe(true);
  });

  it('a write that queues another runs it after those already waiting', () => {
    const queue = new WriteQueue();
    const ran: string[] = [];
    queue.push('default/a', () => {
      ran.push('first');
      queue.push('default/a', () => ran.push('queued by first'));
    });
    queue.push('default/b', () => ran.push('second'));
    while (!queue.empty) queue.runNext();
    expect(ran).toEqual(['first', 'second', 'queued by first']);
    expect(queue.holds('default/a')).toBe(false);
  });
});
