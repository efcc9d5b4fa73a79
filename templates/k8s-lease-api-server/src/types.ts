// One Lease type for client and server: the server stores and returns the client package's models of the
// newest release (a superset of every older release's fields). `metadata` is always present on what the
// server stores, so StoredLease says so instead of every reader checking.
import type { Lease as ClientLease, ObjectMeta } from 'k8s-lease-client';

export type { LeaseSpec, ManagedFieldsEntry, MicroTime, ObjectMeta, OwnerReference, Time } from 'k8s-lease-client';

/** A Lease as the server holds it: the client's model with its metadata always present. */
export type Lease = ClientLease & { metadata: ObjectMeta };
