/**
 * Fencing tokens: what names one term of leadership, so that work done under
 * it can be told apart from work of an earlier (deposed, paused, partitioned)
 * leader. client-go has none; the Lease already holds what makes one:
 * `leaseTransitions` goes up by one each time the holder changes (the elector
 * counts every acquisition, see elector.ts), and `holderIdentity` with
 * `acquireTime` tell a term apart from one of a Lease deleted and created again
 * (whose count starts over).
 *
 * A leader passes its token along with each guarded write; whoever applies
 * the write checks it: against the Lease (`holdsFencingToken`: still the
 * current term?) or against the highest token it has accepted
 * (`compareFencingTokens`: refuse anything older).
 */

import type { MicroTime } from '../time.js';
import type { ElectionLease } from './lease-lock.js';

/** Names one term of leadership; `fencingTokenOf` reads it from a Lease, `compareFencingTokens` orders two. */
export interface FencingToken {
  /** The Lease's `spec.leaseTransitions` when this term began: higher is newer. */
  readonly leaseTransitions: number;
  /** Who holds the term. */
  readonly holderIdentity: string;
  /** The Lease's `spec.acquireTime` of this term (undefined only from a server that dropped it). */
  readonly acquireTime: MicroTime | undefined;
}

/** The token of the term the Lease records now; undefined when it names no holder. */
export function fencingTokenOf(lease: ElectionLease | undefined): FencingToken | undefined {
  const spec = lease?.spec;
  if (!spec?.holderIdentity) return undefined;
  return {
    leaseTransitions: spec.leaseTransitions ?? 0,
    holderIdentity: spec.holderIdentity,
    acquireTime: spec.acquireTime,
  };
}

/** Whether `lease` (freshly read) still records the term of `token`: same holder, count and acquireTime. */
export function holdsFencingToken(lease: ElectionLease | undefined, token: FencingToken): boolean {
  const current = fencingTokenOf(lease);
  return (
    current !== undefined &&
    current.leaseTransitions === token.leaseTransitions &&
    current.holderIdentity === token.holderIdentity &&
    current.acquireTime === token.acquireTime
  );
}

/**
 * Orders two tokens of the same Lease by `leaseTransitions`: negative when `a` is older, positive when newer,
 * 0 for the same count (the same term when holder and acquireTime match too). A store that keeps the
 * highest token it accepted refuses a write whose token compares below it.
 */
export function compareFencingTokens(a: FencingToken, b: FencingToken): number {
  return a.leaseTransitions - b.leaseTransitions;
}
