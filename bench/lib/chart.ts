/**
 * Hand-written SVG bar charts for bench/results/<name>.svg: one panel per
 * measured quantity, a horizontal bar per client, each goal as a line marked
 * met, missed or not measured (in words as well as colour, so the verdict
 * reads in monochrome), and every goal of the benchmark listed under the
 * panels. No chart library: the figure is a few rectangles and lines, and
 * every piece of text goes through escapeXml.
 */

export type GoalStatus = 'met' | 'missed' | 'not measured';

export interface ChartBar {
  readonly label: string;
  readonly value: number;
  /** This package's own bar, drawn in the accent colour. */
  readonly ours?: boolean;
  /** Drawn as the words "not measured" when its value is missing (a reader older records did not run), instead of being left out. */
  readonly showMissing?: boolean;
}

/** A goal line on a panel: where the threshold sits, what it says ("goal ≥ 0.85×"), and whether it was met. */
export interface GoalMark {
  readonly value: number;
  readonly label: string;
  readonly status: GoalStatus;
}

export interface ChartPanel {
  readonly title: string;
  /** Unit shown after each value, e.g. "req/s", "ms", "B", "×". */
  readonly unit: string;
  readonly bars: readonly ChartBar[];
  readonly goal?: GoalMark;
  /** The value at the right edge; panels given the same one compare by bar length (default: this panel's largest, rounded up). */
  readonly scaleMax?: number;
  /**
   * The axis spans at least this much (it always starts at zero), so two values near zero do not fill
   * the width: e.g. the goal's limit, or a unit the quantity is naturally read in.
   */
  readonly minSpan?: number;
}

/** One line of the goal list under the panels. */
export interface GoalLine {
  readonly text: string;
  readonly status: GoalStatus;
}

export interface Chart {
  readonly title: string;
  /** One line: what the chart measures, with any abbreviation spelled out. */
  readonly caption: string;
  /** Environment and date of the record. */
  readonly subtitle?: string;
  readonly panels: readonly ChartPanel[];
  /** Every goal of the benchmark with its verdict (drawn as a list under the panels). */
  readonly goals?: readonly GoalLine[];
}

const WIDTH = 760;
const LABEL_WIDTH = 190;
const VALUE_WIDTH = 120;
const PLOT_WIDTH = WIDTH - LABEL_WIDTH - VALUE_WIDTH - 20;
const BAR_HEIGHT = 18;
const BAR_GAP = 6;
const PANEL_TITLE = 24;
const AXIS = 16;
const PANEL_GAP = 18;
const GOAL_LABEL = 16;
const GOAL_LINE = 16;
const GOALS_TITLE = 22;
/** Roughly how wide a character of 12 px text is, to keep a value's text off a goal line. */
const CHAR_WIDTH = 7;
/** Characters of a goal line before it wraps (11 px text across the chart's width). */
const GOAL_WRAP = 118;

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

/** A value with its unit: "1.04×" for ratios, "2,559 B" otherwise. */
export function withUnit(value: number, unit: string): string {
  return unit === '×' ? `${formatValue(value)}×` : `${formatValue(value)} ${unit}`;
}

/** The smallest 1, 2, 2.5 or 5 × 10^k at or above `value`: the right edge of an axis. */
export function niceCeil(value: number): number {
  if (!(value > 0) || !Number.isFinite(value)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 2.5, 5, 10].find((s) => s * power >= value * (1 - 1e-12)) ?? 10;
  return step * power;
}

/** The value at the panel's right edge: its largest bar, goal, shared scale or minimum span, rounded up; the axis starts at zero. */
export function axisMax(panel: ChartPanel): number {
  const candidates = [
    ...panel.bars.map((b) => b.value),
    panel.goal?.value ?? 0,
    panel.scaleMax ?? 0,
    panel.minSpan ?? 0,
  ].filter((v) => Number.isFinite(v) && v > 0);
  return niceCeil(Math.max(0, ...candidates));
}

const VERDICT: Readonly<Record<GoalStatus, string>> = {
  met: '✓ met',
  missed: '✗ MISSED',
  'not measured': '– not measured',
};
const STATUS_CLASS: Readonly<Record<GoalStatus, string>> = {
  met: 'met',
  missed: 'missed',
  'not measured': 'unmeasured',
};

/** Splits a long line at spaces so it fits the chart's width. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

function goalLines(goal: GoalLine): string[] {
  return wrap(`${VERDICT[goal.status]} — ${goal.text}`, GOAL_WRAP);
}

function panelHeight(panel: ChartPanel): number {
  return PANEL_TITLE + panel.bars.length * (BAR_HEIGHT + BAR_GAP) + AXIS + (panel.goal === undefined ? 0 : GOAL_LABEL);
}

function renderPanel(panel: ChartPanel, top: number): string[] {
  const max = axisMax(panel);
  const x = (value: number): number =>
    LABEL_WIDTH + (Math.min(max, Math.max(0, Number.isFinite(value) ? value : 0)) / max) * PLOT_WIDTH;
  const barsBottom = top + PANEL_TITLE + panel.bars.length * (BAR_HEIGHT + BAR_GAP);
  const out = [`<text x="10" y="${top + 16}" class="panel">${escapeXml(panel.title)}</text>`];
  const goalX = panel.goal !== undefined && Number.isFinite(panel.goal.value) ? x(panel.goal.value) : undefined;
  panel.bars.forEach((bar, index) => {
    const y = top + PANEL_TITLE + index * (BAR_HEIGHT + BAR_GAP);
    if (!Number.isFinite(bar.value)) {
      out.push(
        `<text x="${LABEL_WIDTH - 8}" y="${y + 13}" class="label" text-anchor="end">${escapeXml(bar.label)}</text>`,
        `<text x="${LABEL_WIDTH + 6}" y="${y + 13}" class="value unmeasured">not measured in this record</text>`,
      );
      return;
    }
    const width = Math.max(1, x(bar.value) - LABEL_WIDTH);
    const end = LABEL_WIDTH + width;
    const value = withUnit(bar.value, panel.unit);
    // A value written across the goal line would hide it: start the text past the line when the text would cross it.
    const crosses = goalX !== undefined && goalX >= end && goalX < end + 8 + value.length * CHAR_WIDTH;
    const valueX = crosses ? goalX + 6 : end + 6;
    out.push(
      `<text x="${LABEL_WIDTH - 8}" y="${y + 13}" class="label" text-anchor="end">${escapeXml(bar.label)}</text>`,
      `<rect x="${LABEL_WIDTH}" y="${y}" width="${width.toFixed(1)}" height="${BAR_HEIGHT}" class="${bar.ours === true ? 'ours' : 'other'}"/>`,
      `<text x="${valueX.toFixed(1)}" y="${y + 13}" class="value">${escapeXml(value)}</text>`,
    );
  });
  // The axis: zero, half and the right edge, so a bar's length reads as a quantity.
  const axisY = barsBottom - BAR_GAP + 2;
  out.push(`<line x1="${LABEL_WIDTH}" y1="${axisY}" x2="${LABEL_WIDTH + PLOT_WIDTH}" y2="${axisY}" class="axis"/>`);
  for (const [fraction, anchor] of [
    [0, 'start'],
    [0.5, 'middle'],
    [1, 'end'],
  ] as const) {
    const tx = LABEL_WIDTH + fraction * PLOT_WIDTH;
    out.push(
      `<line x1="${tx}" y1="${axisY}" x2="${tx}" y2="${axisY + 3}" class="axis"/>`,
      `<text x="${tx}" y="${axisY + 13}" class="tick" text-anchor="${anchor}">${escapeXml(fraction === 0 ? '0' : withUnit(fraction * max, panel.unit))}</text>`,
    );
  }
  if (panel.goal !== undefined && goalX !== undefined) {
    const { goal } = panel;
    const gx = goalX;
    const cls = STATUS_CLASS[goal.status];
    const label = `${goal.label} — ${VERDICT[goal.status]}`;
    // Anchored so the label stays inside the plot whichever end the line is near.
    const anchor =
      gx < LABEL_WIDTH + PLOT_WIDTH * 0.25 ? 'start' : gx > LABEL_WIDTH + PLOT_WIDTH * 0.75 ? 'end' : 'middle';
    out.push(
      `<line x1="${gx.toFixed(1)}" y1="${top + PANEL_TITLE - 4}" x2="${gx.toFixed(1)}" y2="${axisY}" class="goal ${cls}"/>`,
      `<text x="${gx.toFixed(1)}" y="${axisY + AXIS + 11}" class="goal-label ${cls}" text-anchor="${anchor}">${escapeXml(label)}</text>`,
    );
  }
  return out;
}

function renderGoals(goals: readonly GoalLine[], top: number): string[] {
  const met = goals.filter((g) => g.status === 'met').length;
  const out = [
    `<text x="10" y="${top + 16}" class="panel">${escapeXml(`Goals: ${met} of ${goals.length} met`)}</text>`,
  ];
  let y = top + GOALS_TITLE;
  for (const goal of goals) {
    for (const line of goalLines(goal)) {
      y += GOAL_LINE;
      out.push(`<text x="14" y="${y - 4}" class="goal-item ${STATUS_CLASS[goal.status]}">${escapeXml(line)}</text>`);
    }
  }
  return out;
}

function goalsHeight(goals: readonly GoalLine[]): number {
  return goals.length === 0 ? 0 : GOALS_TITLE + goals.reduce((sum, g) => sum + goalLines(g).length * GOAL_LINE, 0) + 6;
}

const STYLE = [
  'text{font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;font-size:12px;fill:#24292f}',
  '.title{font-size:15px;font-weight:600}.caption{fill:#24292f}.subtitle{fill:#57606a;font-size:11px}.panel{font-weight:600}',
  '.value,.goal-label{paint-order:stroke;stroke:#fff;stroke-width:3px}.value{fill:#57606a}',
  '.tick{fill:#6e7781;font-size:10px}.axis{stroke:#8c959f;stroke-width:1}',
  '.ours{fill:#0969da}.other{fill:#8c959f}',
  '.goal{stroke-width:2;stroke-dasharray:5 3}.goal-label,.goal-item{font-size:11px;font-weight:600}',
  'line.met{stroke:#1a7f37}line.missed{stroke:#cf222e}line.unmeasured{stroke:#6e7781}',
  'text.met{fill:#1a7f37}text.missed{fill:#cf222e}text.unmeasured{fill:#6e7781}',
].join('');

/** The whole SVG document. Deterministic: the same chart gives the same bytes. */
export function renderChart(chart: Chart): string {
  const panels = chart.panels.filter((p) => p.bars.length > 0);
  const goals = chart.goals ?? [];
  const header = chart.subtitle === undefined ? 48 : 64;
  const heights = panels.map(panelHeight);
  const height = header + heights.reduce((sum, h) => sum + h + PANEL_GAP, 0) + goalsHeight(goals);
  const body: string[] = [];
  let top = header;
  panels.forEach((panel, index) => {
    body.push(...renderPanel(panel, top));
    top += (heights[index] ?? 0) + PANEL_GAP;
  });
  if (goals.length > 0) body.push(...renderGoals(goals, top));
  return `${[
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${escapeXml(`${chart.title}: ${chart.caption}`)}">`,
    `<style>${STYLE}</style>`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="10" y="20" class="title">${escapeXml(chart.title)}</text>`,
    `<text x="10" y="38" class="caption">${escapeXml(chart.caption)}</text>`,
    chart.subtitle === undefined ? '' : `<text x="10" y="54" class="subtitle">${escapeXml(chart.subtitle)}</text>`,
    ...body,
    '</svg>',
  ]
    .filter((line) => line !== '')
    .join('\n')}\n`;
}
