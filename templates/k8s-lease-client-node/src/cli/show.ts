// `k8s-lease get [NAME]` and `k8s-lease list [-A] [-l SELECTOR]`.
import type { Client, Lease } from 'k8s-lease-client';
import { listLeaseForAllNamespaces, listNamespacedLease, readNamespacedLease } from 'k8s-lease-client';
import type { ShowArgs } from './args.js';
import type { CliIo } from './io.js';
import { renderTable } from './lease-table.js';
import { printJson, printYaml } from './print-object.js';

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

/** As kubectl prints `-o json|yaml`: one object as it is, several as a `List`. */
function document(leases: readonly Lease[], single: boolean): unknown {
  if (single) return leases[0];
  return { apiVersion: 'v1', items: leases, kind: 'List', metadata: { resourceVersion: '' } };
}

export async function runShow(run: ShowRun): Promise<number> {
  const { args, io, namespace } = run;
  const leases = await fetchLeases(run);
  const single = args.name !== undefined;
  if (args.output === 'json') io.stdout(printJson(document(leases, single)));
  else if (args.output === 'yaml') io.stdout(printYaml(document(leases, single)));
  else if (leases.length === 0)
    // kubectl's wording (get.go), on stderr so that a pipe sees no rows.
    io.stderr(args.allNamespaces ? 'No resources found\n' : `No resources found in ${namespace} namespace.\n`);
  else
    io.stdout(renderTable(leases, { allNamespaces: args.allNamespaces, wide: args.output === 'wide', now: io.now() }));
  return 0;
}
