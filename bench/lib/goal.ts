/**
 * A benchmark goal, declared once (bench/lib/goals.ts) and judged by one function for both the run
 * that records it (the `met` in bench/results/<name>.json) and the chart that draws it from the
 * recorded figures: the line on the chart and the verdict beside it cannot disagree with the record.
 */

export type Figures = Readonly<Record<string, number | string | null>>;

export type Comparison = '≥' | '≤' | '<' | '=' | '|x| <';

/** A goal on one recorded figure: the figure compared with a threshold. */
export interface FigureGoal {
  readonly kind: 'figure';
  /** Stable key: recorded with the verdict, so a chart finds it again. */
  readonly id: string;
  /** The goal in words, without the measured value. */
  readonly text: string;
  /** The recorded figure the verdict reads; several names when it was recorded under another in older runs (the first present wins). */
  readonly figure: string | readonly string[];
  readonly comparison: Comparison;
  /** In the figure's unit; a function when the threshold is itself derived from the run's figures. */
  readonly threshold: number | ((figures: Figures) => number);
  /** Unit of the figure and threshold, e.g. "×", "ms", "B". */
  readonly unit: string;
  /** What the chart's bar is called (default "ours"). */
  readonly bar?: string;
}

/** A goal that is a yes/no outcome of the run (every event received, the watcher terminated): only the run can judge it. */
export interface CheckGoal {
  readonly kind: 'check';
  readonly id: string;
  readonly text: string;
  /** How the goal's text began in records written before goals carried an id. */
  readonly legacyText?: string;
}

export type GoalSpec = FigureGoal | CheckGoal;

export type Verdict = 'met' | 'missed' | 'not measured';

/** What a run records per goal (`id` absent in records written before goals had one). */
export interface RecordedGoal {
  readonly id?: string;
  readonly goal: string;
  readonly met: boolean;
}

export interface JudgedGoal {
  readonly spec: GoalSpec;
  readonly verdict: Verdict;
  /** The measured figure and the threshold it was held to (figure goals whose figure was recorded). */
  readonly value?: number;
  readonly threshold?: number;
}

function numberOf(figures: Figures, key: string): number | undefined {
  const value = figures[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The recorded value a figure goal reads, if any of its names was recorded. */
export function goalFigure(goal: FigureGoal, figures: Figures): number | undefined {
  const keys = typeof goal.figure === 'string' ? [goal.figure] : goal.figure;
  for (const key of keys) {
    const value = numberOf(figures, key);
    if (value !== undefined) return value;
  }
  return undefined;
}

export function thresholdOf(goal: FigureGoal, figures: Figures): number {
  return typeof goal.threshold === 'number' ? goal.threshold : goal.threshold(figures);
}

function compare(value: number, comparison: Comparison, threshold: number): boolean {
  switch (comparison) {
    case '≥':
      return value >= threshold;
    case '≤':
      return value <= threshold;
    case '<':
      return value < threshold;
    case '=':
      return value === threshold;
    case '|x| <':
      return Math.abs(value) < threshold;
  }
}

/** A figure goal against recorded figures: 'not measured' when the figure (or what its threshold needs) was not recorded. */
export function judgeFigure(goal: FigureGoal, figures: Figures): JudgedGoal {
  const value = goalFigure(goal, figures);
  const threshold = thresholdOf(goal, figures);
  if (value === undefined || !Number.isFinite(threshold)) return { spec: goal, verdict: 'not measured' };
  return { spec: goal, verdict: compare(value, goal.comparison, threshold) ? 'met' : 'missed', value, threshold };
}

/** A check goal's verdict as a record holds it: by id, or for older records by how its text began. */
function judgeCheck(goal: CheckGoal, recorded: readonly RecordedGoal[]): JudgedGoal {
  const found =
    recorded.find((r) => r.id === goal.id) ??
    (goal.legacyText === undefined
      ? undefined
      : recorded.find((r) => r.id === undefined && r.goal.startsWith(goal.legacyText!)));
  return { spec: goal, verdict: found === undefined ? 'not measured' : found.met ? 'met' : 'missed' };
}

/** Every declared goal of a benchmark, judged from what one record holds. */
export function judgeRecord(
  specs: readonly GoalSpec[],
  figures: Figures,
  recorded: readonly RecordedGoal[],
): JudgedGoal[] {
  return specs.map((spec) => (spec.kind === 'figure' ? judgeFigure(spec, figures) : judgeCheck(spec, recorded)));
}

/** "1.3×", "2,950 B": a figure or threshold with its unit, as records and charts print it. */
function withUnit(value: number, unit: string): string {
  const number = value.toLocaleString('en-US', { maximumFractionDigits: 3 });
  return unit === '×' ? `${number}×` : `${number} ${unit}`;
}

/** "≥ 1.3 ×", "≤ 2,950 B", "|x| < 0.455 MB": the threshold as a reader sees it. */
export function describeThreshold(comparison: Comparison, threshold: number, unit: string): string {
  const quantity = withUnit(threshold, unit);
  return comparison === '|x| <' ? `|x| < ${quantity}` : `${comparison} ${quantity}`;
}

/**
 * What a run records: each goal with its verdict, figure goals judged from `figures` (the recorded,
 * rounded figures, so the verdict is the one the record shows), check goals from `checks`.
 */
export function recordGoals(
  specs: readonly GoalSpec[],
  figures: Figures,
  checks: Readonly<Record<string, { readonly met: boolean; readonly detail?: string }>>,
): RecordedGoal[] {
  return specs.map((spec) => {
    if (spec.kind === 'check') {
      const check = checks[spec.id];
      if (check === undefined) throw new Error(`goal ${spec.id}: the run did not judge it`);
      return {
        id: spec.id,
        goal: check.detail === undefined ? spec.text : `${spec.text} (${check.detail})`,
        met: check.met,
      };
    }
    const judged = judgeFigure(spec, figures);
    const got = judged.value === undefined ? 'not measured' : `got ${withUnit(judged.value, spec.unit)}`;
    const limit =
      typeof spec.threshold === 'number' || judged.threshold === undefined
        ? ''
        : `, limit ${describeThreshold(spec.comparison, judged.threshold, spec.unit)}`;
    return { id: spec.id, goal: `${spec.text} (${got}${limit})`, met: judged.verdict === 'met' };
  });
}
