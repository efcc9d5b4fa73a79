// The table `k8s-lease get` and `list` print: kubectl's columns for Leases (NAME, HOLDER, AGE, as
// pkg/printers/internalversion's printLease fills them, NAMESPACE first with -A), then what a Lease's user asks
// next: how long since the holder renewed, whether the Lease has expired, how often it changed hands.
import type { Lease } from 'k8s-lease-client';
import { humanDuration } from 'k8s-lease-client';

export interface TableOptions {
  readonly allNamespaces: boolean;
  readonly wide: boolean;
  /** Local time in ms. */
  readonly now: number;
}

const NONE = '<none>';

function since(time: string | undefined, now: number): string {
  const at = time === undefined ? Number.NaN : Date.parse(time);
  return Number.isNaN(at) ? NONE : humanDuration(now - at);
}

/**
 * Whether the Lease is free to take by the times written in it: no holder, or renewTime + leaseDurationSeconds
 * passed. Judged by this machine's clock against the holder's, so only a hint: the elector itself never compares
 * them (it times expiry from when it saw the record change).
 */
export function expired(lease: Lease, now: number): boolean | undefined {
  const spec = lease.spec ?? {};
  if (!spec.holderIdentity) return true;
  const renewed = spec.renewTime === undefined ? Number.NaN : Date.parse(spec.renewTime);
  if (Number.isNaN(renewed) || spec.leaseDurationSeconds === undefined) return undefined;
  return now > renewed + spec.leaseDurationSeconds * 1000;
}

function row(lease: Lease, options: TableOptions): string[] {
  const spec = lease.spec ?? {};
  const expiry = expired(lease, options.now);
  const cells = [
    lease.metadata?.name ?? '',
    spec.holderIdentity ?? '',
    since(lease.metadata?.creationTimestamp, options.now),
    since(spec.renewTime, options.now),
    expiry === undefined ? '<unknown>' : String(expiry),
    String(spec.leaseTransitions ?? 0),
  ];
  if (options.wide)
    cells.push(
      spec.leaseDurationSeconds === undefined ? NONE : `${spec.leaseDurationSeconds}s`,
      since(spec.acquireTime, options.now),
      spec.preferredHolder ?? NONE,
    );
  return options.allNamespaces ? [lease.metadata?.namespace ?? '', ...cells] : cells;
}

/** Columns padded as kubectl's tabwriter pads them: left-aligned, three spaces apart, no trailing space. */
export function renderTable(leases: readonly Lease[], options: TableOptions): string {
  const header = [
    ...(options.allNamespaces ? ['NAMESPACE'] : []),
    'NAME',
    'HOLDER',
    'AGE',
    'RENEWED',
    'EXPIRED',
    'TRANSITIONS',
    ...(options.wide ? ['DURATION', 'ACQUIRED', 'PREFERRED-HOLDER'] : []),
  ];
  const rows = [header, ...leases.map((lease) => row(lease, options))];
  const widths = header.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd((widths[i] ?? 0) + 3)))
        .join('')
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join('');
}
