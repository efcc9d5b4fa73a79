// Help texts, one per subcommand.
import type { Subcommand } from './args.js';

const CLUSTER = `Cluster (as kubectl):
  --kubeconfig FILE        the kubeconfig to use (default: KUBECONFIG, else ~/.kube/config;
                           in a Pod without one, the service account)
  --context NAME           the kubeconfig context to use
  -n, --namespace NS       the Lease's namespace (default: the context's, else "default")`;

const IDENTITY = `  --identity ID            this candidate's holderIdentity (default: host name _ process id)`;

const HEALTH = `Health (for probes and Prometheus):
  --healthz-port N         serve /healthz (500 once leading without renewal for lease-duration
                           + 20s, as client-go's HealthzAdaptor) and /metrics (client-go's
                           leader_election_master_status and leader_election_slowpath_total);
                           0 picks a free port, printed on stderr
  --healthz-address A      the address to listen on (default 127.0.0.1; 0.0.0.0 in a Pod)`;

const TIMINGS = `Timings (client-go's leader election; Go durations such as 15s, 1m30s, 500ms):
  --lease-duration D       how long others wait after the last renewal (default 15s)
  --renew-deadline D       how long the holder keeps trying to renew (default 10s)
  --retry-period D         how often to try to acquire or renew (default 2s)`;

export const USAGE: Readonly<Record<Subcommand | 'main', string>> = {
  main: `Usage: k8s-lease COMMAND [options]

Hold Kubernetes Leases (coordination.k8s.io/v1) from the command line.

Commands:
  lock NAME -- COMMAND [ARGS...]   run COMMAND while holding the Lease NAME
  elect NAME -- COMMAND [ARGS...]  run COMMAND whenever this replica leads the election NAME
  get [NAME]                       show the Leases of a namespace, or one
  list [-A] [-l SELECTOR]          show Leases, in one namespace or all
  watch [-A] [-l SELECTOR]         show Leases as list does, and again as they change
  release NAME                     give up a Lease this identity holds

Run k8s-lease COMMAND --help for a command's options. k8s-lease --version prints the version.
`,
  lock: `Usage: k8s-lease lock NAME [options] -- COMMAND [ARGS...]

Acquires the Lease NAME, runs COMMAND while it is held, and releases it when COMMAND exits.
SIGINT and SIGTERM are passed to COMMAND. If the Lease is lost while COMMAND runs, COMMAND gets
SIGTERM, then SIGKILL after --grace; renew-deadline + grace must stay below lease-duration, so that
no other replica starts before it is gone.

Exit code: COMMAND's own (128 + N if signal N ended it); 3 if the Lease was lost; 4 if --timeout
passed; 1 on an error retrying cannot mend (401, 403, no such namespace); 2 on a bad command line;
127 if COMMAND could not be started.

Options:
  --timeout D              give up acquiring after D (default: wait for ever)
  --grace D                after a lost Lease, SIGKILL this long after SIGTERM
                           (default: half of lease-duration - renew-deadline); counted from the
                           last moment this process knew it led, so after a pause past it, SIGKILL
                           at once
  --fencing-env            give COMMAND the fencing token: K8S_LEASE_NAMESPACE, K8S_LEASE_NAME,
                           K8S_LEASE_HOLDER, K8S_LEASE_TRANSITIONS, K8S_LEASE_ACQUIRE_TIME
${IDENTITY}

${TIMINGS}

${HEALTH}

${CLUSTER}
`,
  elect: `Usage: k8s-lease elect NAME [options] -- COMMAND [ARGS...]

Takes part in the election held on the Lease NAME and runs COMMAND whenever this replica leads.
When leadership is lost, COMMAND gets SIGTERM, then SIGKILL after --grace, and the replica rejoins
the election. SIGINT and SIGTERM are passed to COMMAND; once it exits, the replica steps down and
ends with COMMAND's exit code.

With --coordinated (coordinated leader election, Kubernetes 1.31+ with the CoordinatedLeaderElection
feature gate), the replica keeps a LeaseCandidate named after --identity in the Lease's namespace,
and the cluster's controller picks the holder among the candidates (the oldest emulation version,
then binary version, then the longest-standing); COMMAND runs once the controller names this one.
On exit the LeaseCandidate is deleted, so the controller elects another at once.

Exit code: COMMAND's own; 1 on an error retrying cannot mend (401, 403, no such namespace, a
LeaseCandidate the server refuses); 2 on a bad command line; 5 if --coordinated was asked of a
cluster that serves no LeaseCandidate; 127 if COMMAND could not be started.

Options:
  --restart POLICY         when COMMAND ends while leading: always (start it again after 1s; the
                           default), on-failure (again unless it exited 0; else step down and
                           exit 0), never (step down and exit with its code)
  --grace D                after lost leadership, SIGKILL this long after SIGTERM
                           (default: half of lease-duration - renew-deadline); counted as lock's
  --fencing-env            give COMMAND the fencing token of each term, as lock does
  --coordinated            take part through a LeaseCandidate (coordination.k8s.io v1beta1,
                           v1alpha2 or v1alpha1, the newest the cluster serves)
  --binary-version V       the LeaseCandidate's binaryVersion, a semantic version above 0.0.0
                           (default 1.0.0: all candidates equal unless told); needs --coordinated
  --emulation-version V    its emulationVersion, at most the binary version (default: the binary
                           version); needs --coordinated
${IDENTITY}
                           (with --coordinated it names the LeaseCandidate: a lowercase RFC 1123
                           subdomain, by default host name - process id)

${TIMINGS}

${HEALTH}

${CLUSTER}
`,
  get: `Usage: k8s-lease get [NAME] [options]

Prints the Leases of the namespace (or the one named) as kubectl get leases does (NAME, HOLDER, AGE),
then RENEWED (time since the last renewal), EXPIRED (by renewTime + leaseDurationSeconds, read
with this machine's clock) and TRANSITIONS.

Options:
  -o, --output FORMAT      json, yaml, or wide (adds DURATION, ACQUIRED, PREFERRED-HOLDER)
  -A, --all-namespaces     every namespace
  -l, --selector SEL       a label selector, as kubectl's

${CLUSTER}
`,
  list: `Usage: k8s-lease list [options]

As k8s-lease get without a name.

Options:
  -o, --output FORMAT      json, yaml, or wide
  -A, --all-namespaces     every namespace
  -l, --selector SEL       a label selector, as kubectl's

${CLUSTER}
`,
  watch: `Usage: k8s-lease watch [options]

Prints the table of k8s-lease list, then follows the Leases as they change (list, then watch;
reconnecting, and listing again if the watch falls too far behind). On a terminal the table is
redrawn in place; on a pipe the header is printed once and each change adds one row, as
kubectl get leases --watch prints it (a deleted Lease's last row included). Runs until SIGINT or
SIGTERM (exit 130 or 143); 1 on an error retrying cannot mend.

Options:
  -o, --output FORMAT      json or yaml (each changed Lease as one object), or wide
  -A, --all-namespaces     every namespace
  -l, --selector SEL       a label selector, as kubectl's

${CLUSTER}
`,
  release: `Usage: k8s-lease release NAME [options]

Gives up the Lease NAME if this identity holds it, as a leader stepping down does (the holder
cleared, leaseDurationSeconds 1), so the next candidate takes it at once.

Options:
  --force                  clear the Lease whoever holds it (with a warning: that holder is not
                           told and may still be running)
${IDENTITY}

${CLUSTER}
`,
};
