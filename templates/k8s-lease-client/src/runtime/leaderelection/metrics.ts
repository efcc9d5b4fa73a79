/**
 * The figures client-go's leader election reports (tools/leaderelection/metrics.go, LeaderMetric), for users who
 * bring their own metrics library. component-base's Prometheus adapter
 * (metrics/prometheus/clientgo/leaderelection/metrics.go) turns them into `leader_election_master_status{name}`
 * (a gauge: On sets 1, Off 0) and `leader_election_slowpath_total{name}` (a counter).
 */
export interface LeaderElectionMetrics {
  /** This candidate became the leader of the election `name` (client-go's acquire(), once it succeeded). */
  on(name: string): void;
  /** This candidate stopped leading `name` (client-go's renew(), once its loop ended). */
  off(name: string): void;
  /**
   * The leader renewed by reading the Lease first: its update from the cached object failed, or it had none
   * (client-go's tryAcquireOrRenew, step 3 while IsLeader()). A high rate says someone else writes the Lease.
   */
  slowpathExercised(name: string): void;
}
