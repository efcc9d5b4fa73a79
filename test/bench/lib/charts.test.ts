import { describe, expect, it } from 'vitest';
import { chartOf } from '../../../bench/lib/charts.js';
import { recordGoals } from '../../../bench/lib/goal.js';
import { goalsOf } from '../../../bench/lib/goals.js';

describe('the server-scale chart', () => {
  const figures = {
    'Lease counts': '10000, 50000, 100000',
    '10000 Leases: paged LIST ms (under writes, median)': 100,
    '50000 Leases: paged LIST ms (under writes, median)': 520,
    '100000 Leases: paged LIST ms (under writes, median)': 1100,
    'paged LIST under writes, largest / smallest': 11,
    '10000 Leases: batched watch: server CPU µs per delivery': 4,
    '10000 Leases: unbatched watch: server CPU µs per delivery': 8,
    'server CPU per delivery unbatched / batched (median over counts)': 2,
  };

  it('draws one bar per recorded count, and the LIST goal at 1.2 × the count ratio on its own ratio panel', () => {
    const chart = chartOf('server-scale', figures)!;
    const list = chart.panels.find((p) => p.title.startsWith('whole paged LIST (limit 500) under'))!;
    expect(list.bars.map((b) => [b.label, b.value])).toEqual([
      ['10,000 Leases', 100],
      ['50,000 Leases', 520],
      ['100,000 Leases', 1100],
    ]);
    const ratio = chart.panels.find((p) => p.title.startsWith('paged LIST under writes: largest'))!;
    expect(ratio.goal).toMatchObject({ value: 12, status: 'met' });
  });

  it("holds a quick run's LIST to its own count ratio (5,000 ÷ 1,000: at most 6×)", () => {
    const quick = { 'Lease counts': '1000, 2000, 5000', 'paged LIST under writes, largest / smallest': 6.5 };
    const ratio = chartOf('server-scale', quick)!.panels.find((p) => p.title.startsWith('paged LIST under writes'))!;
    expect(ratio.goal).toMatchObject({ value: 6, status: 'missed' });
    const [list] = recordGoals(goalsOf('server-scale'), quick, { 'every-delivery': { met: true } });
    expect(list).toMatchObject({ id: 'list-under-writes', met: false });
    expect(list!.goal).toContain('limit ≤ 6×');
  });

  it('leaves out the bars of a mode that did not run (a failed watch) rather than drawing zero', () => {
    const chart = chartOf('server-scale', figures)!;
    const cpu = chart.panels.find((p) => p.title.startsWith('server CPU per watch delivery'))!;
    expect(cpu.bars.map((b) => b.label)).toEqual(['10,000, batched', '10,000, unbatched']);
    const ratio = chart.panels.find((p) => p.title.startsWith('server CPU per delivery, unbatched'))!;
    expect(ratio.goal).toMatchObject({ value: 1.5, status: 'met' });
  });

  it('judges a goal whose count failed as not measured, and lists the delivery check with its verdict', () => {
    const failedLargest = {
      'Lease counts': '10000, 50000, 100000',
      'paged LIST under writes, largest / smallest': null,
    };
    const recorded = recordGoals(goalsOf('server-scale'), failedLargest, { 'every-delivery': { met: false } });
    const chart = chartOf('server-scale', failedLargest, recorded)!;
    expect(chart.goals?.map((g) => g.status)).toEqual(['not measured', 'not measured', 'missed']);
  });
});
