// /metrics' text: the two families of component-base's Prometheus adapter for client-go's leader election
// (k8s.io/component-base/metrics/prometheus/clientgo/leaderelection/metrics.go: leaderGauge
// `leader_election_master_status` and leaderSlowpathCounter `leader_election_slowpath_total`, ALPHA, label `name`;
// leaderAdapter.On sets 1, Off 0, SlowpathExercised adds 1), in the Prometheus text exposition format.
import { describe, expect, it } from 'vitest';
import { createElectionMetrics } from '../../../templates/k8s-lease-client-node/src/cli/election-metrics.js';

const samples = (text: string): string[] => text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));

describe('election metrics', () => {
  it("names, types and help texts as component-base's, the ALPHA level in the help as component-base prefixes it", () => {
    const text = createElectionMetrics().render();
    expect(text.split('\n').filter((line) => line.startsWith('#'))).toEqual([
      "# HELP leader_election_master_status [ALPHA] Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.",
      '# TYPE leader_election_master_status gauge',
      "# HELP leader_election_slowpath_total [ALPHA] Total number of slow path exercised in renewing leader leases. 'name' is the string used to identify the lease. Please make sure to group by name.",
      '# TYPE leader_election_slowpath_total counter',
    ]);
    expect(samples(text)).toEqual([]);
  });

  it('on sets the gauge to 1, off to 0; the slow path counts up; one sample per name, escaped', () => {
    const metrics = createElectionMetrics();
    metrics.on('b');
    metrics.on('a"\\\n');
    metrics.slowpathExercised('b');
    metrics.slowpathExercised('b');
    metrics.off('b');
    expect(samples(metrics.render())).toEqual([
      'leader_election_master_status{name="a\\"\\\\\\n"} 1',
      'leader_election_master_status{name="b"} 0',
      'leader_election_slowpath_total{name="b"} 2',
    ]);
  });
});
