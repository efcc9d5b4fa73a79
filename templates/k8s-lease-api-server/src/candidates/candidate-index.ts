// The controller's informer index (leaderelection_controller.go indexes LeaseCandidates by spec.leaseName):
// the parsed candidates of each Lease, plus what its electionNeeded asks of them kept up to date per change
// (the best electee, the oldest renewal, the strategy), so deciding that a Lease needs no election costs
// O(log n) rather than a pass over its candidates. Only removing or changing the current best (or a member
// of the strategy's top binary version) makes the next question a pass.
import type { JsonObject } from '../json.js';
import { objectAt, stringAt } from '../json.js';
import { splitKey, storeKey } from '../store/lease-store.js';
import type { Candidate } from './election.js';
import { compareCandidates, compareVersions, type pickBestStrategy, readCandidate } from './election.js';
import { RenewHeap } from './renew-heap.js';

type StrategyResult = ReturnType<typeof pickBestStrategy>;

/** Same election key: emulation, binary, creation and name decide compareCandidates. */
const sameRank = (a: Candidate, b: Candidate): boolean => compareCandidates(a, b) === 0;

const electable = (c: Candidate): boolean =>
  c.binary !== undefined && c.emulation !== undefined && c.renewTime !== undefined;

/** The candidates of one Lease. Those without renewTime are members but never admissible (isLeaseCandidateExpired). */
export class LeaseCandidates {
  readonly members: Map<string, Candidate> = new Map();
  private best: Candidate | undefined;
  private bestStale = false;
  private strategy: { binary: Candidate['binary']; value: string; conflict: string | undefined } | undefined;
  private strategyStale = false;
  private readonly renewals = new RenewHeap();
  /** Candidates pinged and not renewed since (renewTime before pingTime). */
  private readonly unanswered = new Set<Candidate>();

  get size(): number {
    return this.members.size;
  }

  set(c: Candidate): void {
    const before = this.members.get(c.key);
    if (before !== undefined) this.forget(before, c);
    this.members.set(c.key, c);
    this.learn(c);
  }

  delete(key: string): void {
    const before = this.members.get(key);
    if (before === undefined) return;
    this.members.delete(key);
    this.forget(before, undefined);
  }

  /** pickBestLeaderOldestEmulationVersion over the admissible candidates. */
  electee(): Candidate | undefined {
    if (this.bestStale) {
      this.best = undefined;
      for (const c of this.members.values())
        if (electable(c) && (this.best === undefined || compareCandidates(this.best, c) > 0)) this.best = c;
      this.bestStale = false;
    }
    return this.best;
  }

  /** pickBestStrategy over the admissible candidates (the newest binary version's strategy; disagreement there is an error). */
  bestStrategy(): StrategyResult {
    if (this.strategyStale) {
      this.strategy = undefined;
      for (const c of this.members.values()) this.addStrategy(c);
      this.strategyStale = false;
    }
    const s = this.strategy;
    if (s === undefined) return { ok: false, error: 'no strategy' };
    return s.conflict === undefined ? { ok: true, strategy: s.value } : { ok: false, error: s.conflict };
  }

  /** reconcileElectionStep's wait: some candidate was pinged less than `windowMs` before `t` and has not answered. */
  awaitingPing(t: number, windowMs: number): boolean {
    for (const c of this.unanswered) if ((c.pingTime ?? 0) + windowMs > t) return true;
    return false;
  }

  /** The oldest renewTime among the candidates, for the 15-minute refresh. */
  oldestRenewal(): number | undefined {
    return this.renewals.oldest((key) => this.members.get(key)?.renewTime)?.at;
  }

  private learn(c: Candidate): void {
    if (c.renewTime === undefined) return;
    if (c.pingTime !== undefined && c.renewTime < c.pingTime) this.unanswered.add(c);
    this.renewals.push({ at: c.renewTime, key: c.key });
    if (this.renewals.size > 2 * this.members.size + 16)
      this.renewals.rebuild(
        [...this.members.values()].flatMap((m) => (m.renewTime === undefined ? [] : [{ at: m.renewTime, key: m.key }])),
      );
    if (!this.bestStale && electable(c) && (this.best === undefined || compareCandidates(this.best, c) > 0))
      this.best = c;
    if (!this.strategyStale) this.addStrategy(c);
  }

  /** `before` leaves (replaced by `after`, or deleted): the cached answers it took part in are recomputed when next asked. */
  private forget(before: Candidate, after: Candidate | undefined): void {
    this.unanswered.delete(before);
    if (this.best?.key === before.key) {
      if (after !== undefined && sameRank(before, after) && electable(after)) this.best = after;
      else this.bestStale = true;
    }
    if (before.strategy !== undefined && before.renewTime !== undefined && this.strategy !== undefined) {
      const unchanged =
        after !== undefined &&
        after.renewTime !== undefined &&
        after.strategy === before.strategy &&
        compareVersions(after.binary, before.binary) === 0;
      if (!unchanged && compareVersions(before.binary, this.strategy.binary) === 0) this.strategyStale = true;
    }
  }

  /** pickBestStrategy's step for one more candidate, over the top binary version only. */
  private addStrategy(c: Candidate): void {
    if (c.strategy === undefined || c.renewTime === undefined) return;
    const s = this.strategy;
    const order = s === undefined ? 1 : compareVersions(c.binary, s.binary);
    if (s === undefined || order > 0) this.strategy = { binary: c.binary, value: c.strategy, conflict: undefined };
    else if (order === 0 && c.strategy !== s.value && s.conflict === undefined)
      s.conflict = `candidates with the same binary version have different strategies ${s.value} and ${c.strategy}`;
  }
}

/** Every Lease's candidates, by the Lease's store key. */
export class CandidateIndex {
  readonly byLease: Map<string, LeaseCandidates> = new Map();

  /** The Lease a candidate names: its namespace and spec.leaseName. */
  static leaseKeyOf(key: string, object: JsonObject | undefined): string | undefined {
    const leaseName = object === undefined ? undefined : stringAt(objectAt(object, 'spec'), 'leaseName');
    return leaseName === undefined ? undefined : storeKey(splitKey(key).namespace, leaseName);
  }

  /** One candidate changed (`after` undefined: deleted); returns the Leases concerned (the workqueue's keys). */
  apply(key: string, before: JsonObject | undefined, after: JsonObject | undefined): string[] {
    const from = CandidateIndex.leaseKeyOf(key, before);
    const to = CandidateIndex.leaseKeyOf(key, after);
    if (from !== undefined && from !== to) {
      const members = this.byLease.get(from);
      members?.delete(key);
      if (members?.size === 0) this.byLease.delete(from);
    }
    if (to !== undefined && after !== undefined) {
      let members = this.byLease.get(to);
      if (members === undefined) {
        members = new LeaseCandidates();
        this.byLease.set(to, members);
      }
      members.set(readCandidate(key, after));
    }
    return [from, to].filter((k, i, all): k is string => k !== undefined && all.indexOf(k) === i);
  }
}
