// The grace a lost term leaves the command, counted from the last moment k8s-lease knew it led: whole when the loss
// is noticed as it happens, spent when the process was paused past it (the machine.ts rule "a leader that was
// paused notices on waking", carried to the command, which must not run on with a fresh grace meanwhile).
import { afterEach, describe, expect, it } from 'vitest';
import type { TermWatch } from '../../../templates/k8s-lease-client-node/src/cli/term-watch.js';
import { stopping, watchTerm } from '../../../templates/k8s-lease-client-node/src/cli/term-watch.js';

let clock = 0;
let leading = true;
const watches: TermWatch[] = [];
const watch = (): TermWatch => {
  const w = watchTerm({ isLeader: () => leading }, () => clock, 100);
  watches.push(w);
  return w;
};
afterEach(() => {
  for (const w of watches.splice(0)) w.stop();
  leading = true;
  clock = 0;
});

describe('watchTerm', () => {
  it('leaves the whole grace when the loss is noticed within two looks of the last lead', () => {
    const w = watch();
    clock = 1_000;
    expect(w.graceLeft(500)).toBe(500); // still leading at this look
    leading = false;
    clock = 1_150;
    expect(w.graceLeft(500)).toBe(500);
  });

  it('counts the grace from the last lead after a pause, and leaves none once it is over', () => {
    const w = watch();
    clock = 1_000;
    w.graceLeft(500); // a look that found it leading
    leading = false;
    clock = 1_300; // paused 300 ms past it
    expect(w.graceLeft(500)).toBe(200);
    clock = 4_000; // paused for seconds: another replica may run by now
    expect(w.graceLeft(500)).toBe(0);
    expect(w.graceLeft(0)).toBe(0);
  });

  it('says how the command is stopped', () => {
    expect(stopping(300, 300)).toBe('SIGTERM, SIGKILL after 300ms');
    expect(stopping(200, 500)).toBe('SIGTERM, SIGKILL after 200ms of its 500ms grace');
    expect(stopping(0, 500)).toBe('SIGKILL now: its grace ran out while this process could not act');
    expect(stopping(0, 0)).toBe('SIGKILL now');
  });
});
