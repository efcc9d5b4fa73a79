/**
 * The Lease as a lock, as client-go's resourcelock.LeaseLock, but without
 * state: it reads, creates and updates, and keeps nothing. An update is
 * written over the Lease its caller last read or wrote, whose resourceVersion
 * makes it conditional (optimistic concurrency: a 409 means someone else
 * wrote in between); the caller keeps that Lease (the elector in its
 * observation, observation.ts; a heartbeat in its loop). Results are values;
 * nothing here throws.
 *
 * The paths and the structural Lease type are hand-written here because the
 * runtime is release-independent and cannot import the per-release generated operations.
 */

import { isNotFound } from '../errors.js';
import { nameSegment, namespaceSegment } from '../path-segments.js';
import type { MicroTime } from '../time.js';
import type { Client } from '../transport.js';

/** The LeaseSpec fields elections use; structurally compatible with every release's generated model. */
export interface ElectionLeaseSpec {
  /** Identity of the current holder; empty or absent when nobody holds the Lease. */
  holderIdentity?: string;
  /** How long, in seconds, others wait after the last renewal before they may take over. */
  leaseDurationSeconds?: number;
  /** When the current holder acquired the Lease. */
  acquireTime?: MicroTime;
  /** When the current holder last renewed the Lease. */
  renewTime?: MicroTime;
  /** How often the Lease changed hands. */
  leaseTransitions?: number;
  /** 1.31+: a better holder the current one should yield to (coordinated leader election). */
  preferredHolder?: string;
  /** 1.31+: how coordinated leader election picks the holder, e.g. `OldestEmulationVersion`. */
  strategy?: string;
}

/** A metav1.OwnerReference: the object whose deletion lets the garbage collector delete the Lease (kubelet: its Node). */
export interface ElectionOwnerReference {
  /** The owner's API version, e.g. `v1` for a Node. */
  apiVersion: string;
  /** The owner's kind, e.g. `Node`. */
  kind: string;
  /** The owner's name. */
  name: string;
  /** The owner's uid: the garbage collector matches on it, so a re-created owner with the same name is not the owner. */
  uid: string;
  /** Whether the owner is the managing controller (at most one reference may say so). */
  controller?: boolean | undefined;
  /** Whether a foreground deletion of the owner waits for this Lease to be deleted. */
  blockOwnerDeletion?: boolean | undefined;
}

/** The Lease fields elections read and write; every release's generated `Lease` model is assignable to it. */
export interface ElectionLease {
  /** `coordination.k8s.io/v1`. */
  apiVersion?: string;
  /** `Lease`. */
  kind?: string;
  /** Name, namespace, the resourceVersion an update must carry, and the owner references a heartbeat sets. */
  metadata?: {
    name?: string;
    namespace?: string;
    resourceVersion?: string;
    uid?: string;
    ownerReferences?: ElectionOwnerReference[];
  };
  /** The election record. */
  spec?: ElectionLeaseSpec;
}

/** Metadata a write may set besides name and namespace. */
export interface ElectionLeaseMetadata {
  /** Owner references to write, e.g. the Node that owns a node lease. */
  ownerReferences?: ElectionOwnerReference[];
}

/** What an election writes; the rest of the spec (preferredHolder, strategy) is kept as read. */
export interface ElectionRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: MicroTime;
  renewTime: MicroTime;
  leaseTransitions: number;
}

export type LockRead =
  | { kind: 'found'; lease: ElectionLease }
  | { kind: 'missing' }
  | { kind: 'error'; error: unknown };
export type LockWrite = { ok: true; lease: ElectionLease } | { ok: false; error: unknown };

export interface LeaseLock {
  get(signal?: AbortSignal): Promise<LockRead>;
  create(spec: ElectionLeaseSpec, signal?: AbortSignal, metadata?: ElectionLeaseMetadata): Promise<LockWrite>;
  /**
   * Writes `base` (the Lease as last read or written, resourceVersion included) with these fields of its spec
   * (and these metadata fields, if given) replaced.
   */
  update(
    base: ElectionLease,
    fields: ElectionLeaseSpec,
    signal?: AbortSignal,
    metadata?: ElectionLeaseMetadata,
  ): Promise<LockWrite>;
}

export function leaseLock(client: Client, namespace: string, name: string): LeaseLock {
  const collection = `/apis/coordination.k8s.io/v1/namespaces/${namespaceSegment(namespace)}/leases`;
  const item = `${collection}/${nameSegment(name)}`;
  const write = async (
    method: 'POST' | 'PUT',
    path: string,
    body: ElectionLease,
    signal?: AbortSignal,
  ): Promise<LockWrite> => {
    try {
      return {
        ok: true,
        lease: await client.request<ElectionLease>({ method, path, body: JSON.stringify(body) }, { signal }),
      };
    } catch (error) {
      return { ok: false, error };
    }
  };
  return {
    async get(signal) {
      try {
        return { kind: 'found', lease: await client.request<ElectionLease>({ method: 'GET', path: item }, { signal }) };
      } catch (error) {
        return isNotFound(error) ? { kind: 'missing' } : { kind: 'error', error };
      }
    },
    create: (spec, signal, metadata) =>
      write(
        'POST',
        collection,
        { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { ...metadata, name, namespace }, spec },
        signal,
      ),
    update: (base, fields, signal, metadata) =>
      write(
        'PUT',
        item,
        {
          ...base,
          ...(metadata === undefined ? {} : { metadata: { ...base.metadata, ...metadata } }),
          spec: { ...base.spec, ...fields },
        },
        signal,
      ),
  };
}
