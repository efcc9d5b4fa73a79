// How long the server keeps other requests waiting while something runs: the measure of a stall shared by
// the hostile-input tests and the garbage collector's.
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';

/**
 * The slowest answer to back-to-back GET /version while `attack` runs: one probe is always in flight, so a
 * stalled event loop shows as a slow probe. The bound the tests assert is generous (the machine is shared);
 * before bodies were parsed off the event loop, hostile bodies stalled it for 10–22 s.
 */
export async function worstVersionLatency<T>(server: LeaseApiServer, attack: () => Promise<T>): Promise<[number, T]> {
  let done = false;
  let worst = 0;
  const probes = (async () => {
    while (!done) {
      const started = performance.now();
      const res = await fetch(`${server.url}/version`);
      await res.arrayBuffer();
      worst = Math.max(worst, performance.now() - started);
    }
  })();
  const result = await attack().finally(() => {
    done = true;
  });
  await probes;
  return [worst, result];
}
