/**
 * Hand-written SVG bar charts for bench/results/<name>.svg: one panel per
 * measured quantity, a horizontal bar per client, the goal as a marked line.
 * No chart library: the figure is a few rectangles and lines, and every piece
 * of text goes through escapeXml.
 */

export interface ChartBar {
  readonly label: string;
  readonly value: number;
  /** This package's own bar, drawn in the accent colour. */
  readonly ours?: boolean;
}

export interface ChartPanel {
  readonly title: string;
  /** Unit shown after each value, e.g. "req/s", "ms", "B". */
  readonly unit: string;
  readonly bars: readonly ChartBar[];
  /** Where the goal puts the line, in the panel's unit, and what it says (e.g. "goal ≥ 1.3 × client-node"). */
  readonly goal?: { readonly value: number; readonly label: string };
  /** The value at the right edge; panels given the same one compare by bar length (default: this panel's largest). */
  readonly scaleMax?: number;
}

export interface Chart {
  readonly title: string;
  readonly subtitle?: string;
  readonly panels: readonly ChartPanel[];
}

const WIDTH = 760;
const LABEL_WIDTH = 190;
const VALUE_WIDTH = 120;
const BAR_HEIGHT = 18;
const BAR_GAP = 6;
const PANEL_TITLE = 24;
const PANEL_GAP = 18;
const GOAL_LABEL = 16;
const HEADER = 44;

const XML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeXml(text: string): string {
  // Characters XML 1.0 forbids outright are dropped: escaping cannot make them legal.
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c);
}

/** A value as people read it: thousands separated, at most three significant decimals below 10. */
export function formatValue(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

function panelHeight(panel: ChartPanel): number {
  return PANEL_TITLE + panel.bars.length * (BAR_HEIGHT + BAR_GAP) + (panel.goal === undefined ? 0 : GOAL_LABEL);
}

function renderPanel(panel: ChartPanel, top: number): string[] {
  const plotWidth = WIDTH - LABEL_WIDTH - VALUE_WIDTH - 20;
  const finite = panel.bars.map((b) => b.value).filter((v) => Number.isFinite(v) && v > 0);
  const scaleMax = Math.max(
    ...finite,
    panel.scaleMax !== undefined && Number.isFinite(panel.scaleMax) ? panel.scaleMax : 0,
    panel.goal !== undefined && Number.isFinite(panel.goal.value) ? panel.goal.value : 0,
    Number.MIN_VALUE,
  );
  const x = (value: number): number =>
    LABEL_WIDTH + (Math.max(0, Number.isFinite(value) ? value : 0) / scaleMax) * plotWidth;
  const out = [`<text x="10" y="${top + 16}" class="panel">${escapeXml(panel.title)}</text>`];
  if (panel.goal !== undefined && Number.isFinite(panel.goal.value)) {
    const gx = x(panel.goal.value).toFixed(1);
    const bottom = top + PANEL_TITLE + panel.bars.length * (BAR_HEIGHT + BAR_GAP);
    out.push(
      `<line x1="${gx}" y1="${top + PANEL_TITLE - 4}" x2="${gx}" y2="${bottom}" class="goal"/>`,
      `<text x="${gx}" y="${bottom + 12}" class="goal-label" text-anchor="middle">${escapeXml(`${panel.goal.label} (${formatValue(panel.goal.value)} ${panel.unit})`)}</text>`,
    );
  }
  panel.bars.forEach((bar, index) => {
    const y = top + PANEL_TITLE + index * (BAR_HEIGHT + BAR_GAP);
    const width = Math.max(1, x(bar.value) - LABEL_WIDTH);
    out.push(
      `<text x="${LABEL_WIDTH - 8}" y="${y + 13}" class="label" text-anchor="end">${escapeXml(bar.label)}</text>`,
      `<rect x="${LABEL_WIDTH}" y="${y}" width="${width.toFixed(1)}" height="${BAR_HEIGHT}" class="${bar.ours === true ? 'ours' : 'other'}"/>`,
      `<text x="${(LABEL_WIDTH + width + 6).toFixed(1)}" y="${y + 13}" class="value">${escapeXml(`${formatValue(bar.value)} ${panel.unit}`)}</text>`,
    );
  });
  return out;
}

/** The whole SVG document. Deterministic: the same chart gives the same bytes. */
export function renderChart(chart: Chart): string {
  const panels = chart.panels.filter((p) => p.bars.length > 0);
  const heights = panels.map(panelHeight);
  const height = HEADER + heights.reduce((sum, h) => sum + h + PANEL_GAP, 0);
  const body: string[] = [];
  let top = HEADER;
  panels.forEach((panel, index) => {
    body.push(...renderPanel(panel, top));
    top += (heights[index] ?? 0) + PANEL_GAP;
  });
  return `${[
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${escapeXml(chart.title)}">`,
    '<style>text{font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;font-size:12px;fill:#24292f}.title{font-size:15px;font-weight:600}.subtitle{fill:#57606a}.panel{font-weight:600}.value{fill:#57606a;paint-order:stroke;stroke:#fff;stroke-width:3px}.goal-label{paint-order:stroke;stroke:#fff;stroke-width:3px}.ours{fill:#0969da}.other{fill:#8c959f}.goal{stroke:#cf222e;stroke-width:2;stroke-dasharray:5 3}.goal-label{fill:#cf222e;font-size:11px}</style>',
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="10" y="20" class="title">${escapeXml(chart.title)}</text>`,
    chart.subtitle === undefined ? '' : `<text x="10" y="36" class="subtitle">${escapeXml(chart.subtitle)}</text>`,
    ...body,
    '</svg>',
  ]
    .filter((line) => line !== '')
    .join('\n')}\n`;
}
