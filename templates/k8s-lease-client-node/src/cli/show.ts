// `k8s-lease get [NAME]` and `k8s-lease list [-A] [-l SELECTOR]`.
import type { Client, Lease } from 'k8s-lease-client';
import { listLeaseForAllNamespaces, listNamespacedLease, readNamespacedLease } from 'k8s-lease-client';
import { stringify } from 'yaml';
import type { ShowArgs } from './args.js';
import type { CliIo } from './io.js';
import { renderTable } from './lease-table.js';

export interface ShowRun {
  readonly client: Client;
  readonly namespace: string;
  readonly args: ShowArgs;
  readonly io: CliIo;
}

async function fetchLeases({ client, namespace, args }: ShowRun): Promise<Lease[]> {
  const labelSelector = args.selector;
  const query = labelSelector === undefined ? {} : { labelSelector };
  if (args.name !== undefined) return [await readNamespacedLease(client, { namespace, name: args.name })];
  const list = args.allNamespaces
    ? await listLeaseForAllNamespaces(client, query)
    : await listNamespacedLease(client, { namespace, ...query });
  return list.items;
}

/** kubectl's printers: keys sorted (they print a map), managedFields left out (--show-managed-fields=false). */
function printable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(printable);
  if (typeof value !== 'object' || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    if (key === 'managedFields') continue;
    Object.defineProperty(sorted, key, {
      value: printable(Reflect.get(value, key)),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return sorted;
}

/** As kubectl prints `-o json|yaml`: one object as it is, several as a `List`. */
function document(leases: readonly Lease[], single: boolean): unknown {
  if (single) return printable(leases[0]);
  return { apiVersion: 'v1', items: printable(leases), kind: 'List', metadata: { resourceVersion: '' } };
}

export async function runShow(run: ShowRun): Promise<number> {
  const { args, io, namespace } = run;
  const leases = await fetchLeases(run);
  const single = args.name !== undefined;
  if (args.output === 'json') io.stdout(`${JSON.stringify(document(leases, single), null, 4)}\n`);
  // YAML 1.1, as kubectl's sigs.k8s.io/yaml writes it: strings that 1.1 would read as times or booleans are quoted.
  else if (args.output === 'yaml') io.stdout(stringify(document(leases, single), { version: '1.1' }));
  else if (leases.length === 0)
    // kubectl's wording (get.go), on stderr so that a pipe sees no rows.
    io.stderr(args.allNamespaces ? 'No resources found\n' : `No resources found in ${namespace} namespace.\n`);
  else
    io.stdout(renderTable(leases, { allNamespaces: args.allNamespaces, wide: args.output === 'wide', now: io.now() }));
  return 0;
}
