// `k8s-lease release NAME`: give up a Lease this identity holds, as client-go's LeaderElector.release() writes it
// (holder cleared, leaseDurationSeconds 1, times now, transitions kept), so the next candidate takes it at once.
// `--force` clears another holder's: that holder is not told and may still be working, hence the warning.
import type { Client } from 'k8s-lease-client';
import { isConflict, microTimeNow, readNamespacedLease, replaceNamespacedLease } from 'k8s-lease-client';
import type { ReleaseArgs } from './args.js';
import { EXIT_ERROR } from './exit-codes.js';
import type { CliIo } from './io.js';

export interface ReleaseRun {
  readonly client: Client;
  readonly namespace: string;
  readonly args: ReleaseArgs;
  readonly io: CliIo;
}

/** Conflicts are retried this often (another writer between our read and our write), then reported. */
const ATTEMPTS = 3;

export async function runRelease({ client, namespace, args, io }: ReleaseRun): Promise<number> {
  const where = `${namespace}/${args.name}`;
  for (let attempt = 1; ; attempt++) {
    const lease = await readNamespacedLease(client, { namespace, name: args.name });
    const spec = lease.spec ?? {};
    const holder = spec.holderIdentity ?? '';
    if (holder === '') {
      io.stderr(`k8s-lease: Lease ${where} is not held\n`);
      return 0;
    }
    if (holder !== args.identity) {
      if (!args.force) {
        io.stderr(
          `k8s-lease: Lease ${where} is held by ${JSON.stringify(holder)}, not by ${JSON.stringify(args.identity)} (--identity); --force clears another holder's\n`,
        );
        return EXIT_ERROR;
      }
      if (attempt === 1)
        io.stderr(
          `k8s-lease: warning: clearing Lease ${where} held by ${JSON.stringify(holder)}, which is not told and may still be running\n`,
        );
    }
    const now = microTimeNow();
    try {
      await replaceNamespacedLease(client, {
        namespace,
        name: args.name,
        body: {
          ...lease,
          spec: { ...spec, holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now },
        },
      });
      io.stderr(`k8s-lease: released Lease ${where}\n`);
      return 0;
    } catch (error) {
      if (!isConflict(error) || attempt >= ATTEMPTS) throw error;
    }
  }
}
