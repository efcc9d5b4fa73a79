// What `lock` and `elect` give the library's elector alike: the Lease, this identity, the timings, release on
// cancel, the metrics probe, and how request errors are told: one that retrying cannot mend ends the run, any
// other is said once per distinct text and retried, as client-go keeps trying.
import type { Client, LeaderElectorOptions } from 'k8s-lease-client';
import { isForbidden, isInvalid, isNotFound, isUnauthorized } from 'k8s-lease-client';
import type { CommonArgs, ElectionTimings } from './args.js';
import type { CliIo } from './io.js';
import { oneLine } from './messages.js';
import type { ElectionProbes } from './probes.js';

export interface Candidacy {
  readonly client: Client;
  readonly namespace: string;
  readonly args: CommonArgs & ElectionTimings & { readonly name: string };
  readonly io: CliIo;
  readonly probes?: ElectionProbes | undefined;
}

/**
 * A request error that retrying cannot mend: the credentials, the permissions, or the namespace are wrong, or the
 * server refuses what we write (422: a LeaseCandidate's identity or versions it does not accept).
 */
export function isFatal(error: unknown): boolean {
  return isUnauthorized(error) || isForbidden(error) || isNotFound(error) || isInvalid(error);
}

/** One reporter per run: a fatal error goes to `onFatal`, any other is said once per distinct text (it is retried). */
export function errorReporter(io: CliIo, onFatal: (error: unknown) => void): (error: unknown) => void {
  const warned = new Set<string>();
  return (error) => {
    if (isFatal(error)) return onFatal(error);
    const line = oneLine(error);
    if (warned.has(line)) return;
    warned.add(line);
    io.stderr(`k8s-lease: ${line} (retrying)\n`);
  };
}

/** The elector's options but the callbacks; `onFatal` hears the first error that ends the run. */
export function electorOptions(
  { client, namespace, args, io, probes }: Candidacy,
  signal: AbortSignal,
  onFatal: (error: unknown) => void,
): Omit<LeaderElectorOptions, 'onStartedLeading' | 'onStoppedLeading'> {
  return {
    client,
    namespace,
    name: args.name,
    identity: args.identity,
    leaseDuration: args.leaseDuration,
    renewDeadline: args.renewDeadline,
    retryPeriod: args.retryPeriod,
    releaseOnCancel: true,
    signal,
    metrics: probes?.metrics,
    onError: errorReporter(io, onFatal),
  };
}
