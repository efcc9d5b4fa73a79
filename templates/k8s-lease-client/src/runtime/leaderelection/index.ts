export type { ElectionClock } from './clock.js';
export { realClock } from './clock.js';
export type { LeaderElector, ObservedElection } from './elector.js';
export { createLeaderElector, ElectorEndedError } from './elector.js';
export type { FencingToken } from './fencing.js';
export { compareFencingTokens, fencingTokenOf, holdsFencingToken } from './fencing.js';
export type { HealthzAdaptor } from './healthz.js';
export { createHealthzAdaptor } from './healthz.js';
export type { HeartbeatOptions } from './heartbeat.js';
export { runHeartbeat } from './heartbeat.js';
export type { ElectionLease, ElectionLeaseSpec, ElectionOwnerReference } from './lease-lock.js';
export type { LeaseLockOptions } from './with-lease-lock.js';
export { withLeaseLock } from './with-lease-lock.js';
export type { LeaderElectionMetrics } from './metrics.js';
export type { LeaderElectorOptions } from './options.js';
export type {
  CandidateOptions,
  ElectionLeaseCandidate,
  LeaseCandidateRunner,
  ElectionLeaseCandidateSpec,
} from './candidate.js';
export { createCandidate } from './candidate.js';
