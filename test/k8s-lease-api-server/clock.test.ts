// The server's clock: the caller's time source plus whatever tests have advanced it by.
import { describe, expect, it } from 'vitest';
import { ServerClock } from '../../templates/k8s-lease-api-server/src/clock.js';

describe('ServerClock', () => {
  it('reads the base clock, shifted by every advance so far', () => {
    let base = 1_000;
    const clock = new ServerClock(() => base);
    expect(clock.now()).toBe(1_000);
    clock.advance(500);
    clock.advance(250);
    expect(clock.now()).toBe(1_750);
    base = 2_000;
    expect(clock.now()).toBe(2_750);
    const { now } = clock;
    expect(now()).toBe(2_750);
  });

  it('follows Date.now by default', () => {
    const clock = new ServerClock();
    const before = Date.now();
    const read = clock.now();
    expect(read).toBeGreaterThanOrEqual(before);
    expect(read).toBeLessThanOrEqual(Date.now());
  });
});
