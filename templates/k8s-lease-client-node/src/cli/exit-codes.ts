import { constants } from 'node:os';

// The exit codes of `k8s-lease`. A command run under `lock` passes its own code through; these are the ones the
// tool itself ends with. A child's code can coincide with them: scripts that must tell them apart read stderr,
// where the tool says why it ended.

/** A request failed for good (401, 403, a missing namespace), or the kubeconfig could not be used. */
export const EXIT_ERROR = 1;
/** The command line was wrong. */
export const EXIT_USAGE = 2;
/** The Lease was lost while the command ran, which was then stopped (consul lock ends the same way). */
export const EXIT_LOST = 3;
/** `--timeout` passed before the Lease was acquired. */
export const EXIT_TIMEOUT = 4;
/**
 * `elect --coordinated` against a cluster that serves no LeaseCandidate API (before 1.31, or without the
 * CoordinatedLeaderElection feature gate): a code of its own, so a script can fall back to the plain election.
 */
export const EXIT_NO_COORDINATION = 5;
/** The command could not be started (not found, not executable), as a shell answers. */
export const EXIT_CANNOT_RUN = 127;

/** A process ended by a signal, as a shell reports it: 128 + the signal's number. */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + constants.signals[signal];
}
