import type { Chart, ChartBar, ChartPanel, GoalLine, GoalMark } from './chart.js';
import { withUnit } from './chart.js';
import {
  describeThreshold,
  type FigureGoal,
  type Figures,
  type JudgedGoal,
  judgeRecord,
  type RecordedGoal,
} from './goal.js';
import { goalsOf } from './goals.js';

/** A panel as charts.ts declares it: `goal` names the declared goal (bench/lib/goals.ts) whose line it carries. */
interface PanelDef {
  readonly title: string;
  readonly unit: string;
  readonly bars: readonly ChartBar[];
  readonly goal?: string;
  readonly minSpan?: number;
}

interface ChartDef {
  readonly title: string;
  /** One line: what the chart measures, abbreviations spelled out. */
  readonly caption: string;
  readonly panels: readonly PanelDef[];
}

/**
 * The picture of each benchmark, drawn from its recorded figures only (so a recorded JSON can be
 * redrawn without measuring again). Keys are the figure names each *.bench.ts writes; a missing
 * figure drops its bar. Goals are not written here: every goal declared in bench/lib/goals.ts is judged
 * from the record and drawn, on the panel that names it or on a panel of its own, and listed with
 * its verdict under the panels.
 */
const CHARTS: Readonly<Record<string, (figures: Figures) => ChartDef>> = {
  generate: (f) => ({
    title: 'generate: npm run generate (all releases) vs openapi-typescript (1 release)',
    caption: `Whole-process wall time, median of ${count(f, 'rounds', 'pairs')} rounds; cold: no .build/ or output, warm: nothing changed.`,
    panels: [
      {
        title: 'wall time, whole process (median, lower is better)',
        unit: 'ms',
        bars: [
          { ...bar(f, 'npm run generate, cold', 'npm run generate, cold: median ms', true), showMissing: true },
          // Records before cold and warm were told apart timed warm runs only (after an untimed one, nothing changed).
          barOf(
            f,
            'npm run generate, warm',
            ['npm run generate, warm: median ms', 'npm run generate, all releases: median ms'],
            true,
          ),
          bar(f, 'openapi-typescript (one release)', 'openapi-typescript, types for one release: median ms'),
        ],
      },
      {
        title: 'cold generate ÷ openapi-typescript (median of round ratios)',
        unit: '×',
        bars: [
          {
            ...bar(
              f,
              'cold ÷ openapi-typescript',
              'ratio cold generate / openapi-typescript (median of round ratios)',
              true,
            ),
            showMissing: true,
          },
        ],
        goal: 'cold-vs-openapi-typescript',
      },
      {
        title: 'warm generate ÷ openapi-typescript (median of round ratios)',
        unit: '×',
        bars: [
          barOf(
            f,
            'warm ÷ openapi-typescript',
            [
              'ratio warm generate / openapi-typescript (median of round ratios)',
              'ratio generate / openapi-typescript (median of pair ratios)',
            ],
            true,
          ),
        ],
        goal: 'warm-vs-openapi-typescript',
      },
    ],
  }),
  reads: (f) => ({
    title: 'reads: sequential GETs of one Lease over loopback HTTP',
    caption:
      'Requests/s (higher is better) and client CPU per GET; "fetch floor" is bare fetch + json(), no client at all.',
    panels: [
      {
        title: 'Node 20: requests/s (median over rounds)',
        unit: 'req/s',
        bars: ['fetch floor', 'ours', 'client-node', 'openapi-fetch'].map((k) =>
          bar(f, k === 'client-node' ? 'client-node 1.4.0' : k, `${k}: median req/s`, k === 'ours'),
        ),
      },
      {
        title: 'Node 22: requests/s (median over rounds)',
        unit: 'req/s',
        bars: ['fetch floor (Node 22)', 'ours (Node 22)', 'client-node 2.0.1 (Node 22)'].map((k) =>
          bar(f, k.replace(' (Node 22)', ''), `${k}: median req/s`, k.startsWith('ours')),
        ),
      },
      {
        title: 'client CPU per request (median, lower is better)',
        unit: 'µs',
        bars: [
          'fetch floor',
          'ours',
          'client-node',
          'openapi-fetch',
          'ours (Node 22)',
          'client-node 2.0.1 (Node 22)',
        ].map((k) => bar(f, k, `${k}: client CPU µs per request (median)`, k.startsWith('ours'))),
      },
    ],
  }),
  watch: (f) => ({
    title: `watch: decoding ${count(f, 'events per stream')} Lease watch events from one stream`,
    caption: 'Events decoded per second (higher is better); "floor" readers are bare fetch loops doing the least work.',
    panels: [
      {
        title: 'Node 20: events/s (median over rounds)',
        unit: 'events/s',
        bars: [
          bar(f, 'bytes only (no split)', 'bytes only: median events/s'),
          { ...bar(f, 'byte-split floor (no parse)', 'byte-split floor: median events/s'), showMissing: true },
          bar(f, 'JSON.parse only (in memory)', 'JSON.parse only: median events/s'),
          bar(f, 'fetch floor (split + parse)', 'fetch floor: median events/s'),
          bar(f, 'ours', 'ours: median events/s', true),
          bar(f, 'client-node 1.4.0', 'client-node: median events/s'),
        ],
      },
      {
        title: 'Node 22: events/s (median over rounds)',
        unit: 'events/s',
        bars: [
          bar(f, 'ours', 'ours (Node 22): median events/s', true),
          bar(f, 'client-node 2.0.1', 'client-node 2.0.1 (Node 22): median events/s'),
        ],
      },
      {
        title: 'context, no goal: ours ÷ readers that skip work (events/s, median of per-round ratios)',
        unit: '×',
        bars: [
          {
            ...bar(f, 'ours ÷ byte-split floor', 'ratio ours / byte-split floor (median of per-round ratios)', true),
            showMissing: true,
          },
          bar(f, 'ours ÷ JSON.parse only', 'ratio ours / JSON.parse only (median of per-round ratios)', true),
        ],
        minSpan: 1,
      },
      {
        title: 'peak RSS (resident memory) of the client process (median, lower is better)',
        unit: 'MB',
        bars: ['fetch floor', 'ours', 'client-node', 'ours (Node 22)', 'client-node 2.0.1 (Node 22)'].map((k) =>
          bar(f, k, `${k}: peak RSS MB (median over rounds)`, k.startsWith('ours')),
        ),
      },
    ],
  }),
  'informer-scale': (f) => ({
    title: `informer-scale: ${count(f, 'leases')} node Leases from the Lease API server`,
    caption: `Sync, heap per cached Lease, then ${count(f, 'simulated minutes')} simulated minutes of kubelet renewals (each Lease every 10 s), replayed fast.`,
    panels: [
      {
        title: 'time to synced (median, lower is better)',
        unit: 'ms',
        bars: [
          bar(f, 'ours', 'ours: time to synced ms (median)', true),
          bar(f, 'client-node 1.4.0', 'client-node: time to synced ms (median)'),
        ],
      },
      {
        title: 'retained heap per cached Lease (median, lower is better)',
        unit: 'B',
        bars: [
          bar(f, 'ours', 'ours: retained heap bytes per object (median)', true),
          bar(f, 'client-node 1.4.0', 'client-node: retained heap bytes per object (median)'),
        ],
      },
      {
        title: 'renewals: update events handled per second of client CPU time (higher is better)',
        unit: 'events per CPU-s',
        bars: [
          bar(f, 'ours', 'ours: renewal events per CPU-second', true),
          bar(f, 'client-node 1.4.0', 'client-node: renewal events per CPU-second'),
        ],
      },
      {
        title: 'renewals: events/s of wall time (the server paces both: its rate beside)',
        unit: 'events/s',
        bars: [
          bar(f, 'ours', 'ours: renewal events/s', true),
          bar(f, 'server (ours run)', 'server: renewal updates/s while ours watched'),
          bar(f, 'client-node 1.4.0', 'client-node: renewal events/s'),
          bar(f, 'server (client-node run)', 'server: renewal updates/s while client-node watched'),
        ],
      },
      {
        title: 'renewals: heap growth after GC per 10 simulated minutes (least-squares slope; ≈ 0 is flat)',
        unit: 'MB per 10 simulated min',
        bars: [
          bar(f, 'ours', 'ours: heap slope MB per 10 simulated minutes', true),
          bar(f, 'client-node 1.4.0', 'client-node: heap slope MB per 10 simulated minutes'),
        ],
        goal: 'heap-flat',
        // Read against a megabyte at least, whatever the goal: a few tens of kB per 10 minutes is noise.
        minSpan: 1,
      },
    ],
  }),
  'bundle-size': (f) => ({
    title: 'bundle-size: a read + replace consumer, minified, gzip -9',
    caption: 'Bytes a consumer ships for one Lease read and replace, bundled by esbuild (lower is better).',
    panels: [
      {
        title: 'ours vs openapi-fetch',
        unit: 'B',
        bars: [bar(f, 'ours', 'ours: gzip -9 bytes', true), bar(f, 'openapi-fetch', 'openapi-fetch: gzip -9 bytes')],
        goal: 'gzip-bytes',
      },
      {
        title: 'with client-node (its own scale)',
        unit: 'B',
        bars: [
          bar(f, 'ours', 'ours: gzip -9 bytes', true),
          bar(f, 'openapi-fetch', 'openapi-fetch: gzip -9 bytes'),
          bar(f, 'client-node 1.4.0', 'client-node: gzip -9 bytes'),
        ],
      },
    ],
  }),
  'package-size': (f) => ({
    title: 'package-size: what npm publish ships',
    caption: 'Bytes of each generated package as `npm pack` would publish it (lower is better).',
    panels: [
      {
        title: 'unpacked',
        unit: 'B',
        bars: ['k8s-lease-client', 'k8s-lease-api-server', 'k8s-lease-client-node'].map((k) =>
          bar(f, k, `${k} unpacked bytes`, true),
        ),
        goal: 'client-unpacked',
      },
      {
        title: 'tarball',
        unit: 'B',
        bars: ['k8s-lease-client', 'k8s-lease-api-server', 'k8s-lease-client-node'].map((k) =>
          bar(f, k, `${k} tarball bytes`, true),
        ),
      },
    ],
  }),
  'tls-reads': (f) => ({
    title: 'tls-reads: HTTPS GETs from one kubeconfig',
    caption:
      'HTTPS requests/s (higher is better), a fresh client per round; "undici floor" is bare undici fetch, no client.',
    panels: [
      {
        title: 'requests/s (median over rounds)',
        unit: 'req/s',
        bars: [
          bar(f, 'undici floor', 'undici-floor: median req/s'),
          bar(f, 'ours', 'ours: median req/s', true),
          bar(f, 'client-node 1.4.0', 'client-node: median req/s'),
        ],
      },
      {
        title: 'client CPU per request (median, lower is better)',
        unit: 'µs',
        bars: [
          bar(f, 'undici floor', 'undici-floor: client CPU µs per request (median)'),
          bar(f, 'ours', 'ours: client CPU µs per request (median)', true),
          bar(f, 'client-node 1.4.0', 'client-node: client CPU µs per request (median)'),
        ],
      },
    ],
  }),
  cli: (f) => ({
    title: 'cli: k8s-lease start-up and lock end to end',
    caption: `Whole-process wall time, median of ${count(f, 'rounds')} rounds, against node -e 0 and kubectl get leases.`,
    panels: [
      {
        title: 'wall time, whole process (median, lower is better)',
        unit: 'ms',
        bars: [
          bar(f, 'node -e 0', 'node -e 0: median ms'),
          bar(f, 'k8s-lease --version', 'k8s-lease --version: median ms', true),
          bar(f, 'k8s-lease lock NAME -- true', 'k8s-lease lock: median ms', true),
          bar(f, 'kubectl get leases', 'kubectl get leases: median ms'),
        ],
      },
      {
        title: 'k8s-lease --version ÷ node -e 0 (median of round ratios)',
        unit: '×',
        bars: [
          {
            ...bar(f, '--version ÷ node -e 0', 'ratio k8s-lease --version / node -e 0 (median of round ratios)', true),
            showMissing: true,
          },
        ],
        goal: 'startup-vs-node',
      },
      {
        title: 'k8s-lease lock ÷ kubectl get leases (median of round ratios)',
        unit: '×',
        bars: [
          {
            ...bar(f, 'lock ÷ kubectl', 'ratio k8s-lease lock / kubectl get leases (median of round ratios)', true),
            showMissing: true,
          },
        ],
        goal: 'lock-vs-kubectl',
      },
    ],
  }),
  'leader-election': (f) => ({
    title: 'leader-election: failover after the leader stops dead',
    caption: `Time from the leader's crash to a new leader (lower is better), ${count(f, 'failovers')} failovers, leaseDuration 2 s.`,
    panels: [
      {
        title: 'failover',
        unit: 'ms',
        bars: [
          bar(f, 'median', 'failover median (ms)', true),
          bar(f, 'slowest failover', 'failover max (ms)', true),
          bar(f, 'leaseDuration', 'leaseDuration (ms)'),
        ],
        goal: 'failover',
      },
      {
        title: "requests per renewal (steady state, from the server's log)",
        unit: 'req',
        bars: [bar(f, 'leader', 'requests per renewal', true)],
        goal: 'requests-per-renewal',
      },
    ],
  }),
  'slow-watcher': (f) => ({
    title: 'slow-watcher: server memory with a watch client that never reads',
    caption: `Peak memory of the Lease API server while ${count(f, 'events')} events of 200 KB are written (lower is better).`,
    panels: [
      {
        title: 'peak RSS (resident memory) of the server process',
        unit: 'MB',
        bars: [
          bar(f, 'reading only', 'peak RSS, reading only (MB)'),
          bar(f, 'with a never-reading watcher', 'peak RSS, with a never-reading watcher (MB)', true),
        ],
      },
      {
        title: 'extra heap+external for the never-reading watcher',
        unit: 'MB',
        bars: [
          bar(f, 'bounded (this server)', 'extra heap+external for the never-reading watcher (MB)', true),
          bar(f, 'unbounded backlog', 'unbounded backlog (MB)'),
        ],
        goal: 'extra-live',
      },
    ],
  }),
  'candidate-flood': (f) => ({
    title: `candidate-flood: ${count(f, 'candidates')} LeaseCandidates for one Lease`,
    caption:
      'Worst GET /version latency while candidates are created and renewed, against plain Leases (lower is better).',
    panels: [
      {
        title: 'worst GET /version (ms)',
        unit: 'ms',
        bars: [
          bar(f, 'candidates, creation', 'worst GET /version ms during creation', true),
          bar(f, 'candidates, renewals', 'worst GET /version ms during renewals', true),
          bar(f, 'plain Leases, creation', 'baseline: worst GET /version ms during creation'),
          bar(f, 'plain Leases, renewals', 'baseline: worst GET /version ms during renewals'),
        ],
      },
    ],
  }),
  'hostile-body': (f) => ({
    title: 'hostile-body: a 3 MiB YAML create against the Lease API server',
    caption: 'How long GET /version waits while a hostile YAML body is decoded (lower is better).',
    panels: [
      {
        title: 'worst GET /version (ms)',
        unit: 'ms',
        bars: [
          bar(f, 'during a small YAML create', 'worst GET /version during a small YAML create (ms)'),
          bar(f, 'during the hostile create', 'worst GET /version during the hostile YAML create (ms)', true),
        ],
      },
    ],
  }),
  'parse-fairness': (f) => ({
    title: "parse-fairness: one user's large bodies while another floods YAML Namespaces",
    caption:
      "The authorised user's p99 for 300 KiB JSON creates and YAML applies, quiet and flooded (lower is better).",
    panels: [
      {
        title: 'p99 (ms)',
        unit: 'ms',
        bars: [
          bar(f, 'JSON, quiet', 'quiet: JSON create p99 (ms)'),
          bar(f, 'JSON, 3 MiB flood', '3 MiB flood: JSON create p99 (ms)', true),
          bar(f, 'JSON, 1.4 MiB flood', '1.4 MiB flood: JSON create p99 (ms)', true),
          bar(f, 'YAML, quiet', 'quiet: YAML apply p99 (ms)'),
          bar(f, 'YAML, 3 MiB flood', '3 MiB flood: YAML apply p99 (ms)', true),
          bar(f, 'YAML, 1.4 MiB flood', '1.4 MiB flood: YAML apply p99 (ms)', true),
        ],
      },
    ],
  }),
  'server-scale': (f) => {
    const counts = String(f['Lease counts'] ?? '')
      .split(', ')
      .filter((c) => c !== '');
    const label = (c: string): string => Number(c).toLocaleString('en-US');
    const perCount = (key: string): ChartBar[] =>
      counts.map((c) => bar(f, `${label(c)} Leases`, `${c} Leases: ${key}`, true));
    const perMode = (key: string): ChartBar[] =>
      counts.flatMap((c) => [
        bar(f, `${label(c)}, batched`, `${c} Leases: batched watch: ${key}`, true),
        bar(f, `${label(c)}, unbatched`, `${c} Leases: unbatched watch: ${key}`),
      ]);
    return {
      title: 'server-scale: the Lease API server at growing Lease counts',
      caption:
        'Writes, paged LISTs, heap and watch fan-out (batching on and off) at each Lease count, one server per count.',
      panels: [
        {
          title: 'creates/s over HTTP, 8 keep-alive clients (higher is better)',
          unit: 'creates/s',
          bars: perCount('creates/s'),
        },
        {
          title: 'updates/s over HTTP, 8 keep-alive clients (higher is better)',
          unit: 'updates/s',
          bars: perCount('updates/s'),
        },
        {
          title: 'whole paged LIST (limit 500) under ~200 writes/s (lower is better)',
          unit: 'ms',
          bars: perCount('paged LIST ms (under writes, median)'),
        },
        {
          title: 'paged LIST under writes: largest count ÷ smallest',
          unit: '×',
          bars: [bar(f, 'largest ÷ smallest', 'paged LIST under writes, largest / smallest', true)],
          goal: 'list-under-writes',
        },
        { title: 'whole paged LIST (limit 500), quiet', unit: 'ms', bars: perCount('paged LIST ms (quiet, median)') },
        { title: 'retained heap per Lease (forced GC)', unit: 'B', bars: perCount('heap bytes per Lease') },
        {
          title: 'server CPU per watch delivery (lower is better)',
          unit: 'µs',
          bars: perMode('server CPU µs per delivery'),
        },
        {
          title: 'server CPU per delivery, unbatched ÷ batched (median over counts)',
          unit: '×',
          bars: [
            bar(f, 'unbatched ÷ batched', 'server CPU per delivery unbatched / batched (median over counts)', true),
          ],
          goal: 'batching-cpu',
        },
        {
          title: 'watch deliveries/s at 1,000 writes/s (higher is better)',
          unit: 'events/s',
          bars: perMode('deliveries/s'),
        },
      ],
    };
  },
};

/** The chart of one record: its panels, every declared goal drawn and judged, or undefined for a benchmark without a picture. */
export function chartOf(name: string, figures: Figures, recorded: readonly RecordedGoal[] = []): Chart | undefined {
  const def = CHARTS[name]?.(figures);
  if (def === undefined) return undefined;
  const judged = judgeRecord(goalsOf(name), figures, recorded);
  const placed = new Set(def.panels.map((p) => p.goal).filter((id) => id !== undefined));
  const panels: ChartPanel[] = def.panels.map((p) => panelOf(p, judged));
  // A figure goal no panel carries gets a panel of its own: its figure as the bar, the threshold as the line.
  for (const j of judged) {
    if (j.spec.kind !== 'figure' || placed.has(j.spec.id)) continue;
    panels.push(
      panelOf(
        {
          title: j.spec.text,
          unit: j.spec.unit,
          bars: [{ label: j.spec.bar ?? 'ours', value: j.value ?? Number.NaN, ours: true }],
          goal: j.spec.id,
        },
        judged,
      ),
    );
  }
  return sideBySide({ title: def.title, caption: def.caption, panels, goals: judged.map(goalLine) });
}

/** Every declared goal of a benchmark judged from its record (for SUMMARY.md, which must agree with the chart). */
export function judgedGoals(name: string, figures: Figures, recorded: readonly RecordedGoal[]): JudgedGoal[] {
  return judgeRecord(goalsOf(name), figures, recorded);
}

function panelOf(def: PanelDef, judged: readonly JudgedGoal[]): ChartPanel {
  const bars = def.bars.filter((b) => Number.isFinite(b.value) || b.showMissing === true);
  const found = def.goal === undefined ? undefined : judged.find((j) => j.spec.id === def.goal);
  const goal = found === undefined || found.spec.kind !== 'figure' ? undefined : markOf(found.spec, found);
  return {
    title: def.title,
    unit: def.unit,
    bars,
    ...(goal === undefined ? {} : { goal }),
    ...(def.minSpan === undefined ? {} : { minSpan: def.minSpan }),
  };
}

function markOf(spec: FigureGoal, judged: JudgedGoal): GoalMark | undefined {
  if (judged.threshold === undefined) return undefined;
  return {
    value: judged.threshold,
    label: `goal ${describeThreshold(spec.comparison, judged.threshold, spec.unit)}`,
    status: judged.verdict,
  };
}

function goalLine(judged: JudgedGoal): GoalLine {
  const { spec } = judged;
  const got =
    spec.kind === 'figure' && judged.value !== undefined
      ? `; got ${withUnit(judged.value, spec.unit)}${typeof spec.threshold === 'number' || judged.threshold === undefined ? '' : `, limit ${withUnit(judged.threshold, spec.unit)}`}`
      : '';
  return { text: `${spec.text}${got}`, status: judged.verdict };
}

/** Node 20 and Node 22 panels of one quantity share their scale, so their bars compare by length. */
function sideBySide(chart: Chart): Chart {
  const pairs = chart.panels.filter((p) => /^Node (20|22): /.test(p.title));
  if (pairs.length < 2) return chart;
  const max = Math.max(
    ...pairs.flatMap((p) => [...p.bars.map((b) => b.value), p.goal?.value ?? 0]).filter(Number.isFinite),
  );
  return { ...chart, panels: chart.panels.map((p) => (pairs.includes(p) ? { ...p, scaleMax: max } : p)) };
}

function num(figures: Figures, key: string): number {
  const value = figures[key];
  return typeof value === 'number' ? value : Number.NaN;
}

/** A count for a title ("200,000"), or "?" when the record lacks it (`older`: its name in older records). */
function count(figures: Figures, key: string, older?: string): string {
  const value = older === undefined || Number.isFinite(num(figures, key)) ? num(figures, key) : num(figures, older);
  return Number.isFinite(value) ? value.toLocaleString('en-US') : '?';
}

function bar(figures: Figures, label: string, key: string, ours = false): ChartBar {
  return { label, value: num(figures, key), ours };
}

/** A bar whose figure was recorded under another name in older records: the first name present wins. */
function barOf(figures: Figures, label: string, keys: readonly string[], ours = false): ChartBar {
  const value = keys.map((k) => num(figures, k)).find(Number.isFinite) ?? Number.NaN;
  return { label, value, ours };
}
