import { formatValue, type Chart, type ChartBar, type ChartPanel } from './chart.js';

type Figures = Readonly<Record<string, number | string>>;

/**
 * The picture of each benchmark, drawn from its recorded figures only (so a
 * recorded JSON can be redrawn without measuring again). Keys are the
 * figure names each *.bench.ts writes; a missing figure drops its bar.
 */
const CHARTS: Readonly<Record<string, (figures: Figures) => Chart>> = {
  generate: (f) => ({
    title: 'generate: npm run generate (6 releases) vs openapi-typescript (1 release)',
    panels: [
      panel(
        'wall time, whole process (median)',
        'ms',
        [
          bar(f, 'npm run generate (all releases)', 'npm run generate, all releases: median ms', true),
          bar(f, 'openapi-typescript (one release)', 'openapi-typescript, types for one release: median ms'),
        ],
        {
          value: num(f, 'openapi-typescript, types for one release: median ms'),
          label: 'goal ≤ 1.0 × openapi-typescript',
        },
      ),
      panel(
        'ratio generate / openapi-typescript, median of pair ratios',
        '×',
        [bar(f, 'generate / openapi-typescript', 'ratio generate / openapi-typescript (median of pair ratios)', true)],
        { value: 1, label: 'goal ≤ 1.0' },
      ),
    ],
  }),
  reads: (f) => ({
    title: 'reads: sequential GETs of one Lease (higher is better)',
    panels: [
      panel(
        'Node 20: requests/s (median over rounds)',
        'req/s',
        ['fetch floor', 'ours', 'client-node', 'openapi-fetch'].map((k) =>
          bar(f, k === 'client-node' ? 'client-node 1.4.0' : k, `${k}: median req/s`, k === 'ours'),
        ),
        {
          value: 1.3 * num(f, 'client-node: median req/s'),
          label: 'goal ≥ 1.3 × client-node 1.4.0',
        },
      ),
      panel(
        'Node 22: requests/s (median over rounds)',
        'req/s',
        ['fetch floor (Node 22)', 'ours (Node 22)', 'client-node 2.0.1 (Node 22)'].map((k) =>
          bar(f, k.replace(' (Node 22)', ''), `${k}: median req/s`, k.startsWith('ours')),
        ),
        undefined,
      ),
      panel(
        'client CPU per request (median, lower is better)',
        'µs',
        ['fetch floor', 'ours', 'client-node', 'openapi-fetch', 'ours (Node 22)', 'client-node 2.0.1 (Node 22)'].map(
          (k) => bar(f, k, `${k}: client CPU µs per request (median)`, k.startsWith('ours')),
        ),
        undefined,
      ),
    ],
  }),
  watch: (f) => ({
    title: 'watch: decoding 200,000 Lease watch events (higher is better)',
    panels: [
      panel(
        'Node 20: events/s (median over rounds)',
        'events/s',
        ['bytes only', 'JSON.parse only', 'fetch floor', 'ours', 'client-node'].map((k) =>
          bar(f, k === 'client-node' ? 'client-node 1.4.0' : k, `${k}: median events/s`, k === 'ours'),
        ),
        {
          value: num(f, 'client-node: median events/s'),
          label: 'goal ≥ 1.0 × client-node 1.4.0',
        },
      ),
      panel(
        'Node 22: events/s (median over rounds)',
        'events/s',
        ['ours (Node 22)', 'client-node 2.0.1 (Node 22)'].map((k) =>
          bar(f, k.replace(' (Node 22)', ''), `${k}: median events/s`, k.startsWith('ours')),
        ),
        undefined,
      ),
      panel(
        'peak RSS of the client process (median, lower is better)',
        'MB',
        ['fetch floor', 'ours', 'client-node', 'ours (Node 22)', 'client-node 2.0.1 (Node 22)'].map((k) =>
          bar(f, k, `${k}: peak RSS MB (median over rounds)`, k.startsWith('ours')),
        ),
        undefined,
      ),
    ],
  }),
  'informer-scale': (f) => ({
    title: `informer-scale: ${formatValue(num(f, 'leases'))} node Leases from the Lease API server`,
    panels: [
      panel(
        'time to synced (median, lower is better)',
        'ms',
        [
          bar(f, 'ours', 'ours: time to synced ms (median)', true),
          bar(f, 'client-node 1.4.0', 'client-node: time to synced ms (median)'),
        ],
        {
          value: num(f, 'client-node: time to synced ms (median)'),
          label: 'goal < client-node',
        },
      ),
      panel(
        'retained heap per cached Lease (median, lower is better)',
        'B',
        [
          bar(f, 'ours', 'ours: retained heap bytes per object (median)', true),
          bar(f, 'client-node 1.4.0', 'client-node: retained heap bytes per object (median)'),
        ],
        {
          value: num(f, 'client-node: retained heap bytes per object (median)'),
          label: 'goal < client-node',
        },
      ),
      panel(
        'renewals: update events handled per client CPU-second (higher is better)',
        'events/s',
        [
          bar(f, 'ours', 'ours: renewal events per CPU-second', true),
          bar(f, 'client-node 1.4.0', 'client-node: renewal events per CPU-second'),
        ],
        undefined,
      ),
      panel(
        'renewals: events/s of wall time (the server paces both: its rate beside)',
        'events/s',
        [
          bar(f, 'ours', 'ours: renewal events/s', true),
          bar(f, 'server (ours run)', 'server: renewal updates/s while ours watched'),
          bar(f, 'client-node 1.4.0', 'client-node: renewal events/s'),
          bar(f, 'server (client-node run)', 'server: renewal updates/s while client-node watched'),
        ],
        undefined,
      ),
      panel(
        'renewals: heap growth after GC, least-squares slope (≈ 0 is flat)',
        'MB / 10 sim. min',
        [
          bar(f, 'ours', 'ours: heap slope MB per 10 simulated minutes', true),
          bar(f, 'client-node 1.4.0', 'client-node: heap slope MB per 10 simulated minutes'),
        ],
        undefined,
      ),
    ],
  }),
  'bundle-size': (f) => ({
    title: 'bundle-size: read + replace consumer, minified, gzip -9 (lower is better)',
    panels: [
      panel(
        'ours vs openapi-fetch',
        'B',
        [bar(f, 'ours', 'ours: gzip -9 bytes', true), bar(f, 'openapi-fetch', 'openapi-fetch: gzip -9 bytes')],
        { value: 2560, label: 'goal ≤ 2,560 B' },
      ),
      panel(
        'with client-node (its own scale)',
        'B',
        [
          bar(f, 'ours', 'ours: gzip -9 bytes', true),
          bar(f, 'openapi-fetch', 'openapi-fetch: gzip -9 bytes'),
          bar(f, 'client-node 1.4.0', 'client-node: gzip -9 bytes'),
        ],
        undefined,
      ),
    ],
  }),
  'package-size': (f) => ({
    title: 'package-size: what npm publish ships (lower is better)',
    panels: [
      panel(
        'unpacked',
        'B',
        ['k8s-lease-client', 'k8s-lease-api-server', 'k8s-lease-client-node'].map((k) =>
          bar(f, k, `${k} unpacked bytes`, true),
        ),
        { value: 1_250_000, label: 'client goal ≤ 1,250,000 B' },
      ),
      panel(
        'tarball',
        'B',
        ['k8s-lease-client', 'k8s-lease-api-server', 'k8s-lease-client-node'].map((k) =>
          bar(f, k, `${k} tarball bytes`, true),
        ),
        undefined,
      ),
    ],
  }),
  'tls-reads': (f) => ({
    title: 'tls-reads: HTTPS GETs from one kubeconfig (higher is better)',
    panels: [
      panel(
        'requests/s (median over rounds)',
        'req/s',
        [
          bar(f, 'undici floor', 'undici-floor: median req/s'),
          bar(f, 'ours', 'ours: median req/s', true),
          bar(f, 'client-node 1.4.0', 'client-node: median req/s'),
        ],
        { value: 5 * num(f, 'client-node: median req/s'), label: 'goal ≥ 5 × client-node' },
      ),
      panel(
        'time per request ÷ the undici floor (lower is better)',
        '×',
        [bar(f, 'ours', 'time per request ours ÷ undici floor (median of per-round ratios)', true)],
        { value: 1.15, label: 'goal ≤ 1.15 × floor' },
      ),
      panel(
        'client CPU per request (median, lower is better)',
        'µs',
        [
          bar(f, 'undici floor', 'undici-floor: client CPU µs per request (median)'),
          bar(f, 'ours', 'ours: client CPU µs per request (median)', true),
          bar(f, 'client-node 1.4.0', 'client-node: client CPU µs per request (median)'),
        ],
        undefined,
      ),
    ],
  }),
  'leader-election': (f) => ({
    title: 'leader-election: failover after the leader stops dead (lower is better)',
    panels: [
      panel(
        'failover',
        'ms',
        [
          bar(f, 'median', 'failover median (ms)', true),
          bar(f, 'max', 'failover max (ms)', true),
          bar(f, 'leaseDuration', 'leaseDuration (ms)'),
        ],
        { value: 3320, label: "goal ≤ client-go's worst case" },
      ),
      panel('requests per renewal (steady state)', 'req', [bar(f, 'leader', 'requests per renewal', true)], {
        value: 1,
        label: 'goal = 1',
      }),
    ],
  }),
  'slow-watcher': (f) => ({
    title: 'slow-watcher: server memory with a watch client that never reads (lower is better)',
    panels: [
      panel(
        'peak RSS of the server process',
        'MB',
        [
          bar(f, 'reading only', 'peak RSS, reading only (MB)'),
          bar(f, 'with a never-reading watcher', 'peak RSS, with a never-reading watcher (MB)', true),
        ],
        {
          value: 1.5 * num(f, 'peak RSS, reading only (MB)'),
          label: 'goal ≤ 1.5 × reading only',
        },
      ),
      panel(
        'extra heap+external for the never-reading watcher',
        'MB',
        [
          bar(f, 'bounded (this server)', 'extra heap+external for the never-reading watcher (MB)', true),
          bar(f, 'unbounded backlog', 'unbounded backlog (MB)'),
        ],
        {
          value: 48,
          label: 'goal ≤ 48 MB',
        },
      ),
    ],
  }),
  'server-scale': (f) => {
    const counts = String(f['Lease counts'] ?? '')
      .split(', ')
      .filter((c) => c !== '');
    const perCount = (key: string): ChartBar[] =>
      counts.map((c) => bar(f, `${formatValue(Number(c))} Leases`, `${c} Leases: ${key}`, true));
    const smallest = counts[0] ?? '';
    return {
      title: 'server-scale: the Lease API server at growing Lease counts',
      panels: [
        panel(
          'creates/s over HTTP, 8 keep-alive clients (higher is better)',
          'creates/s',
          perCount('creates/s'),
          undefined,
        ),
        panel(
          'updates/s over HTTP, 8 keep-alive clients (higher is better)',
          'updates/s',
          perCount('updates/s'),
          undefined,
        ),
        panel(
          'whole paged LIST (limit 500) under ~200 writes/s (lower is better)',
          'ms',
          perCount('paged LIST ms (under writes, median)'),
          {
            value: num(f, 'LIST goal: at most') * num(f, `${smallest} Leases: paged LIST ms (under writes, median)`),
            label: `goal: largest ≤ ${formatValue(num(f, 'LIST goal: at most'))} × smallest`,
          },
        ),
        panel('whole paged LIST (limit 500), quiet', 'ms', perCount('paged LIST ms (quiet, median)'), undefined),
        panel('retained heap per Lease (forced GC)', 'B', perCount('heap bytes per Lease'), undefined),
        panel(
          'server CPU per watch delivery (lower is better)',
          'µs',
          counts.flatMap((c) => [
            bar(
              f,
              `${formatValue(Number(c))}, batched`,
              `${c} Leases: batched watch: server CPU µs per delivery`,
              true,
            ),
            bar(f, `${formatValue(Number(c))}, unbatched`, `${c} Leases: unbatched watch: server CPU µs per delivery`),
          ]),
          undefined,
        ),
        panel(
          'server CPU per delivery, unbatched ÷ batched (median over counts)',
          '×',
          [bar(f, 'unbatched / batched', 'server CPU per delivery unbatched / batched (median over counts)', true)],
          { value: 1.5, label: 'goal ≥ 1.5' },
        ),
        panel(
          'watch deliveries/s at 1,000 writes/s (higher is better)',
          'events/s',
          counts.flatMap((c) => [
            bar(f, `${formatValue(Number(c))}, batched`, `${c} Leases: batched watch: deliveries/s`, true),
            bar(f, `${formatValue(Number(c))}, unbatched`, `${c} Leases: unbatched watch: deliveries/s`),
          ]),
          undefined,
        ),
      ],
    };
  },
};

export function chartOf(name: string, figures: Figures): Chart | undefined {
  const chart = CHARTS[name]?.(figures);
  return chart === undefined ? undefined : sideBySide(chart);
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

function bar(figures: Figures, label: string, key: string, ours = false): ChartBar {
  return { label, value: num(figures, key), ours };
}

/** Bars whose figure was not recorded (an older record, a variant that did not run) are left out rather than drawn as zero. */
function panel(
  title: string,
  unit: string,
  bars: readonly ChartBar[],
  goal: ChartPanel['goal'] | undefined,
): ChartPanel {
  const present = bars.filter((b) => Number.isFinite(b.value));
  return goal === undefined || !Number.isFinite(goal.value)
    ? { title, unit, bars: present }
    : { title, unit, bars: present, goal };
}
