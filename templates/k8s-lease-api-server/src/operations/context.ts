// What every Lease operation needs: the store, the release's schema, the (controllable) clock and the
// namespaces that exist (creates are admitted only into those).
import type { ValueStyle } from '../field-value.js';
import type { JsonObject } from '../json.js';
import type { ResourceInfo } from '../lease-meta.js';
import type { EmptiedContainer } from '../managed/typed-value.js';
import type { NamespaceRegistry } from '../namespaces/namespace-registry.js';
import type { ObjectSchema } from '../schema/field-schema.js';
import type { FieldError } from '../status.js';
import type { LeaseStore } from '../store/lease-store.js';

export interface OperationContext {
  store: LeaseStore;
  schema: ObjectSchema;
  /** Milliseconds since the epoch, from the server's clock. */
  now(): number;
  namespaces: NamespaceRegistry;
  /** Which resource (and group version) these operations serve: Lease, or LeaseCandidate in one of its versions. */
  resource: ResourceInfo;
  /** How the release's field errors render values other than numbers, bools and strings (field-value.ts). */
  valueStyle: ValueStyle;
  /** The resource's semantic validation of the state about to be stored (`old` on updates). */
  validate(next: JsonObject, old: JsonObject | undefined): FieldError[];
  /**
   * The strategy's PrepareForCreate/PrepareForUpdate field dropping (`old` on updates), run before
   * validation; absent when the resource drops nothing (e.g. the Lease with CoordinatedLeaderElection on).
   */
  /** What server-side apply's pruning leaves in place of a map or list it empties (the release's structured-merge-diff). */
  emptiedContainers: EmptiedContainer;
  dropDisabledFields?: ((next: JsonObject, old: JsonObject | undefined) => JsonObject) | undefined;
}

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface WriteOptions {
  dryRun: boolean;
  fieldManager: string;
  fieldValidation: FieldValidation;
}
