import { describe, expect, it } from 'vitest';
import { escapeXml, renderChart } from '../../bench/chart.js';
import { chartOf } from '../../bench/charts.js';

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
      panels: [{ title: label, unit: '<u>', bars: [{ label, value: 3 }], goal: { value: 2, label } }],
    });
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('<u>');
    expect(texts(svg)).toContain(label);
    expect(texts(svg).some((t) => t.startsWith(`${label} (2 <u>)`))).toBe(true);
  });

  it('drops characters XML cannot carry at all', () => {
    expect(escapeXml('a\u0000b\u001bc')).toBe('abc');
  });

  it('draws one bar per client, ours in the accent colour, and the goal line where the goal is', () => {
    const svg = renderChart({
      title: 'reads',
      panels: [
        {
          title: 'req/s',
          unit: 'req/s',
          bars: [
            { label: 'ours', value: 200, ours: true },
            { label: 'client-node', value: 100 },
          ],
          goal: { value: 130, label: 'goal ≥ 1.3 × client-node' },
        },
      ],
    });
    const rects = [...svg.matchAll(/<rect x="(\d+)" y="\d+" width="([\d.]+)" height="\d+" class="(\w+)"\/>/g)];
    expect(rects.map((r) => r[3])).toEqual(['ours', 'other']);
    const [ours, theirs] = rects.map((r) => Number(r[2]));
    expect(ours! / theirs!).toBeCloseTo(2, 2);
    const goal = /<line x1="([\d.]+)"[^>]*class="goal"/.exec(svg);
    const left = Number(rects[0]![1]);
    expect((Number(goal?.[1]) - left) / theirs!).toBeCloseTo(1.3, 2);
    expect(texts(svg)).toContain('goal ≥ 1.3 × client-node (130 req/s)');
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
});
