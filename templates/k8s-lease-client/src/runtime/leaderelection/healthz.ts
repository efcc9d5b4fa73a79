/** client-go's HealthzAdaptor: a health check that fails when the leader has stopped renewing. */

import type { LeaderElector } from './elector.js';

/** A health check for a leader elector, made by `createHealthzAdaptor`; serve `check()` from a liveness probe. */
export interface HealthzAdaptor {
  /** The check's name, `leaderElection`, as client-go's. */
  readonly name: string;
  /** Attach the elector once created (the check passes until then). */
  setLeaderElection(elector: LeaderElector): void;
  /** undefined when healthy: not leading, or leading and renewed within leaseDuration + timeout. */
  check(): Error | undefined;
}

/** `timeout`: ms past leaseDuration a leader may go without renewing before it is reported unhealthy. */
export function createHealthzAdaptor(timeout: number): HealthzAdaptor {
  let elector: LeaderElector | undefined;
  return {
    name: 'leaderElection',
    setLeaderElection: (e) => {
      elector = e;
    },
    check: () => elector?.check(timeout),
  };
}
