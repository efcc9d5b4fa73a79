import { describe, expect, it } from 'vitest';
import { chartOf } from '../../bench/charts.js';

describe('the server-scale chart', () => {
  const figures = {
    'Lease counts': '10000, 50000, 100000',
    '10000 Leases: paged LIST ms (under writes, median)': 100,
    '50000 Leases: paged LIST ms (under writes, median)': 520,
    '100000 Leases: paged LIST ms (under writes, median)': 1100,
    'LIST goal: at most': 12,
    '10000 Leases: batched watch: server CPU µs per delivery': 4,
    '10000 Leases: unbatched watch: server CPU µs per delivery': 8,
    'server CPU per delivery unbatched / batched (median over counts)': 2,
  };

  it('draws one bar per recorded count and the LIST goal at 12 × the smallest count', () => {
    const chart = chartOf('server-scale', figures)!;
    const list = chart.panels.find((p) => p.title.startsWith('whole paged LIST (limit 500) under'))!;
    expect(list.bars.map((b) => [b.label, b.value])).toEqual([
      ['10,000 Leases', 100],
      ['50,000 Leases', 520],
      ['100,000 Leases', 1100],
    ]);
    expect(list.goal?.value).toBe(1200);
  });

  it('leaves out the bars of a mode that did not run (a failed watch) rather than drawing zero', () => {
    const chart = chartOf('server-scale', figures)!;
    const cpu = chart.panels.find((p) => p.title.startsWith('server CPU per watch delivery'))!;
    expect(cpu.bars.map((b) => b.label)).toEqual(['10,000, batched', '10,000, unbatched']);
    const ratio = chart.panels.find((p) => p.title.startsWith('server CPU per delivery, unbatched'))!;
    expect(ratio.goal?.value).toBe(1.5);
  });
});
