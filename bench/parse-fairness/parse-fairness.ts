import { yamlLeaseBody } from '../hostile-body/hostile-body.js';

/** The tokens of the parse-fairness benchmark's two users: the measured one, and one refused Leases that floods. */
export const USER_TOKEN = 'bench-user';
export const FLOOD_TOKEN = 'bench-flooder';

/** hostile-body's costly YAML shape (many small nodes under an unknown field), as a Namespace of about `bytes`. */
export function yamlNamespaceBody(name: string, bytes: number): string {
  return yamlLeaseBody(name, bytes).replace(
    'apiVersion: coordination.k8s.io/v1\nkind: Lease',
    'apiVersion: v1\nkind: Namespace',
  );
}

/** The p-th percentile (0–100) of `values`, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] ?? Number.NaN;
}
