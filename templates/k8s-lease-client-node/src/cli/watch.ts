// `k8s-lease watch [-A] [-l SELECTOR]`: the table of `get`, kept current by the library's informer (list, then
// watch, reconnect, re-list after 410). On a terminal the table is redrawn in place; elsewhere each change is one
// more line, as `kubectl get leases --watch` prints it; -o json|yaml prints each changed object.
import type { Client, Informer, InformerHandlers, Lease } from 'k8s-lease-client';
import { createLeaseInformerForAllNamespaces, createNamespacedLeaseInformer } from 'k8s-lease-client';
import type { ShowArgs } from './args.js';
import { signalExitCode } from './exit-codes.js';
import type { CliIo } from './io.js';
import { renderTable } from './lease-table.js';
import { printJson, printYaml } from './print-object.js';

export interface WatchRun {
  readonly client: Client;
  readonly namespace: string;
  readonly args: ShowArgs;
  readonly io: CliIo;
}

/** What the view is told: the informer's state after the change, and the object that changed. */
interface View {
  initial(leases: readonly Lease[]): void;
  changed(lease: Lease, leases: readonly Lease[]): void;
}

// ANSI (ECMA-48) CUU and ED: up N lines, then erase to the end of the screen, as watch(1) style tools redraw.
const cursorUp = (lines: number): string => (lines > 0 ? `\x1b[${lines}A` : '');
const ERASE_BELOW = '\x1b[J';

const byKey = (a: Lease, b: Lease): number => {
  const key = (l: Lease): string => `${l.metadata?.namespace ?? ''}/${l.metadata?.name ?? ''}`;
  return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
};

function noneFound(args: ShowArgs, namespace: string): string {
  // kubectl's wording (get.go), on stderr so that a pipe sees no rows.
  return args.allNamespaces ? 'No resources found\n' : `No resources found in ${namespace} namespace.\n`;
}

/** A terminal: the whole table, redrawn over the previous one. */
function terminalView({ args, io, namespace }: WatchRun): View {
  let drawn = 0;
  const draw = (leases: readonly Lease[]): void => {
    const table =
      leases.length === 0
        ? noneFound(args, namespace)
        : renderTable([...leases].sort(byKey), {
            allNamespaces: args.allNamespaces,
            wide: args.output === 'wide',
            now: io.now(),
          });
    io.stdout(`${cursorUp(drawn)}${ERASE_BELOW}${table}`);
    drawn = table.split('\n').length - 1;
  };
  return { initial: draw, changed: (_lease, leases) => draw(leases) };
}

/** A pipe: the header once, then one row per change, as kubectl's watch output (its rows are not re-aligned either). */
function lineView({ args, io, namespace }: WatchRun): View {
  let headed = false;
  const options = (): Parameters<typeof renderTable>[1] => ({
    allNamespaces: args.allNamespaces,
    wide: args.output === 'wide',
    now: io.now(),
  });
  const print = (leases: readonly Lease[]): void => {
    const lines = renderTable(leases, options());
    io.stdout(headed ? lines.slice(lines.indexOf('\n') + 1) : lines);
    headed = true;
  };
  return {
    initial: (leases) => {
      if (leases.length === 0) io.stderr(noneFound(args, namespace));
      else print([...leases].sort(byKey));
    },
    changed: (lease) => print([lease]),
  };
}

/** -o json|yaml: every object, the initial ones too, as kubectl's printers print each watch event's object. */
function objectView({ args, io }: WatchRun): View {
  let printed = 0;
  const print = (lease: Lease): void => {
    // A LIST's items come without apiVersion and kind; kubectl's printers name them, as a watch event's object is named.
    const object = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', ...lease };
    // kubectl's YAML printer separates documents after the first with `---`.
    if (args.output === 'yaml') io.stdout(`${printed > 0 ? '---\n' : ''}${printYaml(object)}`);
    else io.stdout(printJson(object));
    printed += 1;
  };
  return {
    initial: (leases) => {
      for (const lease of [...leases].sort(byKey)) print(lease);
    },
    changed: (lease) => print(lease),
  };
}

function chooseView(run: WatchRun): View {
  if (run.args.output === 'json' || run.args.output === 'yaml') return objectView(run);
  return run.io.stdoutIsTty ? terminalView(run) : lineView(run);
}

function createLeaseInformer(run: WatchRun, handlers: InformerHandlers<Lease>): Informer<Lease> {
  const labelSelector = run.args.selector;
  return run.args.allNamespaces
    ? createLeaseInformerForAllNamespaces(run.client, { labelSelector }, handlers)
    : createNamespacedLeaseInformer(run.client, { namespace: run.namespace, labelSelector }, handlers);
}

/** Runs until SIGINT or SIGTERM (exit 128 + N) or an error the informer cannot retry (thrown: one line, exit 1). */
export async function runWatch(run: WatchRun): Promise<number> {
  const view = chooseView(run);
  let live = false;
  let settle: (outcome: { code: number } | { error: unknown }) => void = () => undefined;
  const ended = new Promise<{ code: number } | { error: unknown }>((resolve) => {
    settle = resolve;
  });
  // The initial state is printed as one table once synced; only later events are changes.
  const changed = (lease: Lease): void => {
    if (live) view.changed(lease, informer.list());
  };
  const informer = createLeaseInformer(run, {
    onAdd: changed,
    onUpdate: (_old, lease) => changed(lease),
    onDelete: changed,
    onError: (error) => settle({ error }),
  });
  const unsubscribe = run.io.onSignal((signal) => settle({ code: signalExitCode(signal) }));
  try {
    const synced = informer.start().then(
      () => 'synced' as const,
      (error: unknown) => {
        settle({ error });
        return 'failed' as const;
      },
    );
    if ((await Promise.race([synced, ended])) === 'synced') {
      view.initial(informer.list());
      live = true;
    }
    const outcome = await ended;
    if ('error' in outcome) throw outcome.error;
    return outcome.code;
  } finally {
    unsubscribe();
    await informer.stop();
  }
}
