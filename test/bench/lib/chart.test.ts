import { describe, expect, it } from 'vitest';
import { axisMax, escapeXml, niceCeil, renderChart } from '../../../bench/lib/chart.js';
import { chartOf } from '../../../bench/lib/charts.js';
import { judgeRecord, recordGoals, type FigureGoal } from '../../../bench/lib/goal.js';
import { GOALS, goalsOf } from '../../../bench/lib/goals.js';

/** The text nodes of an SVG, unescaped as a viewer shows them. */
function texts(svg: string): string[] {
  return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) =>
    m[1]!
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&'),
  );
}

describe('benchmark charts', () => {
  it('shows hostile labels as text: markup in a label never becomes an element', () => {
    const label = '<script>alert("x")</script> & \'q\'';
    const svg = renderChart({
      title: `t ${label}`,
      caption: label,
      panels: [{ title: label, unit: '<u>', bars: [{ label, value: 3 }], goal: { value: 2, label, status: 'met' } }],
      goals: [{ text: label, status: 'missed' }],
    });
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('<u>');
    expect(texts(svg)).toContain(label);
    expect(texts(svg)).toContain(`${label} — ✓ met`);
    expect(texts(svg)).toContain(`✗ MISSED — ${label}`);
  });

  it('drops characters XML cannot carry at all', () => {
    expect(escapeXml('a\u0000b\u001bc')).toBe('abc');
  });

  it('draws one bar per client, ours in the accent colour, and the goal line where the goal is', () => {
    const svg = renderChart({
      title: 'reads',
      caption: 'GETs',
      panels: [
        {
          title: 'req/s',
          unit: 'req/s',
          bars: [
            { label: 'ours', value: 200, ours: true },
            { label: 'client-node', value: 100 },
          ],
          goal: { value: 130, label: 'goal ≥ 130 req/s', status: 'met' },
        },
      ],
    });
    const rects = [...svg.matchAll(/<rect x="(\d+)" y="\d+" width="([\d.]+)" height="\d+" class="(\w+)"\/>/g)];
    expect(rects.map((r) => r[3])).toEqual(['ours', 'other']);
    const [ours, theirs] = rects.map((r) => Number(r[2]));
    expect(ours! / theirs!).toBeCloseTo(2, 2);
    const goal = /<line x1="([\d.]+)"[^>]*class="goal met"/.exec(svg);
    const left = Number(rects[0]![1]);
    expect((Number(goal?.[1]) - left) / theirs!).toBeCloseTo(1.3, 2);
    expect(texts(svg)).toContain('goal ≥ 130 req/s — ✓ met');
  });

  it('leaves out what a record does not hold instead of drawing it as zero', () => {
    const chart = chartOf('reads', { 'ours: median req/s': 2500, 'client-node: median req/s': 1800 });
    expect(chart?.panels[0]?.bars.map((b) => b.label)).toEqual(['ours', 'client-node 1.4.0']);
    expect(chart?.panels[1]?.bars).toEqual([]);
    expect(texts(renderChart(chart!))).not.toContain('Node 22: requests/s (median over rounds)');
  });

  it('renders the same bytes for the same figures', () => {
    const figures = {
      'ours: gzip -9 bytes': 2557,
      'openapi-fetch: gzip -9 bytes': 2818,
      'client-node: gzip -9 bytes': 207919,
    };
    expect(renderChart(chartOf('bundle-size', figures)!)).toBe(renderChart(chartOf('bundle-size', figures)!));
  });

  it('marks a missed goal as missed and a met goal as met, on its line and in the goal list', () => {
    const svg = renderChart(
      chartOf('watch', {
        'ratio ours / fetch floor (median of per-round ratios)': 1.04,
        'ratio ours / client-node (median of per-round ratios)': 0.959,
      })!,
    );
    const shown = texts(svg);
    expect(shown).toContain('goal ≥ 0.85× — ✓ met');
    expect(shown).toContain('goal ≥ 1.15× — ✗ MISSED');
    expect(shown.some((t) => t.startsWith('✗ MISSED — ours ≥ 1.15 × @kubernetes/client-node'))).toBe(true);
    expect(shown.some((t) => t.startsWith('✓ met — ours ≥ 0.85 × the fetch floor'))).toBe(true);
    // Both verdicts are in words as well as colour: the missed line is drawn in the missed style.
    expect(svg).toMatch(/class="goal missed"/);
    expect(svg).toMatch(/class="goal met"/);
  });

  it('draws and lists every declared goal of every benchmark, unmeasured ones as not measured', () => {
    for (const name of Object.keys(GOALS)) {
      const chart = chartOf(name, {}, []);
      expect(chart, name).toBeDefined();
      expect(chart!.goals?.map((g) => g.status)).toEqual(goalsOf(name).map(() => 'not measured'));
      // One line of the chart's width, and it says something.
      expect(chart!.caption.length, name).toBeGreaterThan(20);
      expect(chart!.caption.length, name).toBeLessThanOrEqual(120);
    }
  });

  it('renders an older watch record without the byte-split floor, saying so instead of dropping it', () => {
    const chart = chartOf('watch', { 'ours: median events/s': 225_000, 'fetch floor: median events/s': 218_000 });
    const svg = renderChart(chart!);
    expect(texts(svg)).toContain('byte-split floor (no parse)');
    expect(texts(svg)).toContain('not measured in this record');
  });

  it('keeps two values near zero from filling the width: the axis starts at zero and spans the goal and the unit floor', () => {
    const figures = {
      leases: 15_000,
      'ours: retained heap bytes per object (median)': 1516,
      'ours: heap slope MB per 10 simulated minutes': 0.026,
      'client-node: heap slope MB per 10 simulated minutes': 0.012,
    };
    const chart = chartOf('informer-scale', figures)!;
    const heap = chart.panels.find((p) => p.title.includes('heap growth'))!;
    expect(heap.goal?.value).toBeCloseTo(0.4548, 4);
    expect(heap.goal?.status).toBe('met');
    expect(axisMax(heap)).toBeGreaterThanOrEqual(1);
    const svg = renderChart({ ...chart, panels: [heap], goals: [] });
    const widths = [...svg.matchAll(/<rect x="\d+" y="\d+" width="([\d.]+)"/g)].map((m) => Number(m[1]));
    // 430 px of plot: 0.026 of an axis of 1 is ~11 px, not the whole width.
    expect(Math.max(...widths)).toBeLessThan(20);
    expect(texts(svg).some((t) => t.includes('MB per 10 simulated min'))).toBe(true);
    expect(texts(svg).join(' ')).not.toContain('sim. min');
  });

  it('rounds an axis up to 1, 2, 2.5 or 5 × a power of ten', () => {
    expect([0.026, 0.455, 1, 1.04, 2.2, 3320, 896_085].map(niceCeil)).toEqual([0.05, 0.5, 1, 2, 2.5, 5000, 1_000_000]);
    expect(niceCeil(0)).toBe(1);
  });

  it("records the verdict the chart draws: a run's recordGoals and a record's judgeRecord agree", () => {
    const specs = goalsOf('tls-reads');
    const figures = {
      'time per request ours ÷ undici floor (median of per-round ratios)': 1.2,
      'ratio ours / client-node (median of per-round ratios)': 8.4,
      'ours: TLS handshakes per round (max over rounds)': 2,
    };
    const recorded = recordGoals(specs, figures, {});
    expect(recorded.map((g) => g.met)).toEqual([false, true, true]);
    expect(recorded[0]!.goal).toContain('got 1.2×');
    expect(judgeRecord(specs, figures, recorded).map((j) => j.verdict)).toEqual(['missed', 'met', 'met']);
  });

  it('finds a check goal in a record written before goals had ids, by how its text began', () => {
    const judged = judgeRecord(goalsOf('slow-watcher'), {}, [
      { goal: 'the never-reading watcher is terminated; the reading one stays', met: false },
      { goal: 'the reading watcher receives all 2000 events', met: true },
    ]);
    expect(judged.map((j) => j.verdict)).toEqual(['not measured', 'not measured', 'missed', 'met']);
  });

  it('reads a figure under an older name when the newer one is missing', () => {
    const handshakes = goalsOf('tls-reads').find((g) => g.id === 'handshakes') as FigureGoal;
    const [judged] = judgeRecord(
      [handshakes],
      { 'ours: TLS handshakes per round of 5000 requests (max over rounds)': 3 },
      [],
    );
    expect(judged).toMatchObject({ verdict: 'missed', value: 3, threshold: 2 });
  });

  it('draws a generate record from before cold and warm runs: its one ratio as warm, cold not measured', () => {
    const chart = chartOf('generate', {
      pairs: 9,
      'npm run generate, all releases: median ms': 1229,
      'openapi-typescript, types for one release: median ms': 1299,
      'ratio generate / openapi-typescript (median of pair ratios)': 0.929,
    })!;
    expect(chart.goals?.map((g) => g.status)).toEqual(['not measured', 'met']);
    const shown = texts(renderChart(chart));
    expect(shown).toContain('not measured in this record');
    expect(shown).toContain('goal ≤ 1× — ✓ met');
    expect(chart.caption).toContain('median of 9 rounds');
  });

  it('refuses to record a run that did not judge one of its check goals', () => {
    expect(() => recordGoals(goalsOf('hostile-body'), {}, {})).toThrow(/created/);
  });
});
