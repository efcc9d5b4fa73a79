// Durations on the command line in Go's time.ParseDuration syntax ("15s", "1m30s", "500ms"), as client-go's
// leader-election flags (--leader-elect-lease-duration and friends) take them.

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** Milliseconds, or undefined when `text` is not a positive duration such as `15s`, `1m30s` or `250ms`. */
export function parseDuration(text: string): number | undefined {
  // Bounded: a flag value is short, and the pattern is linear.
  if (text.length > 32 || !/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(text)) return undefined;
  let total = 0;
  for (const [, amount, , unit] of text.matchAll(/(\d+(\.\d+)?)(ms|s|m|h)/g)) {
    total += Number(amount) * (UNIT_MS[unit ?? ''] ?? Number.NaN);
  }
  return Number.isFinite(total) && total > 0 ? Math.round(total) : undefined;
}

/** `15s`, `1m30s`, `250ms`: the shortest Go-style spelling, for help texts and messages. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${ms}ms`;
  const parts: string[] = [];
  let rest = Math.round(ms);
  for (const [unit, size] of [
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1_000],
    ['ms', 1],
  ] as const) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${count}${unit}`);
    rest -= count * size;
  }
  return parts.join('');
}
