// The figures the library's elector reports (its LeaderElectionMetrics hook), kept as component-base's Prometheus
// adapter keeps them (k8s.io/component-base/metrics/prometheus/clientgo/leaderelection/metrics.go) and written in
// the Prometheus text exposition format (0.0.4) for `/metrics`.
import type { LeaderElectionMetrics } from 'k8s-lease-client';

// component-base prefixes an ALPHA metric's help with its stability level.
const MASTER_STATUS_HELP =
  "[ALPHA] Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.";
const SLOWPATH_HELP =
  "[ALPHA] Total number of slow path exercised in renewing leader leases. 'name' is the string used to identify the lease. Please make sure to group by name.";

export interface ElectionMetrics extends LeaderElectionMetrics {
  /** The exposition text: both families, a sample per name seen. */
  render(): string;
}

/** A label value as the text format escapes it: backslash, double quote and line feed. */
function labelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function family(name: string, type: 'gauge' | 'counter', help: string, samples: ReadonlyMap<string, number>): string {
  const lines = [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`];
  for (const [lease, value] of [...samples].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    lines.push(`${name}{name="${labelValue(lease)}"} ${value}`);
  return `${lines.join('\n')}\n`;
}

export function createElectionMetrics(): ElectionMetrics {
  const status = new Map<string, number>();
  const slowpath = new Map<string, number>();
  return {
    on: (name) => void status.set(name, 1),
    off: (name) => void status.set(name, 0),
    slowpathExercised: (name) => void slowpath.set(name, (slowpath.get(name) ?? 0) + 1),
    render: () =>
      family('leader_election_master_status', 'gauge', MASTER_STATUS_HELP, status) +
      family('leader_election_slowpath_total', 'counter', SLOWPATH_HELP, slowpath),
  };
}
