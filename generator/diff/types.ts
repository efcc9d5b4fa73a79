/** How a change between two releases affects a consumer written against the older one. */
export type ChangeClass = 'breaking' | 'additive' | 'docs-only';

export type ChangeKind =
  | 'group-version-added'
  | 'group-version-removed'
  | 'operation-added'
  | 'operation-removed'
  | 'operation-changed'
  | 'query-parameter-added'
  | 'query-parameter-removed'
  | 'query-parameter-retyped'
  | 'query-parameter-required-changed'
  | 'request-body-changed'
  | 'response-added'
  | 'response-removed'
  | 'response-retyped'
  | 'content-types-changed'
  | 'model-added'
  | 'model-removed'
  | 'model-retyped'
  | 'field-added'
  | 'field-removed'
  | 'field-retyped'
  | 'field-required-changed'
  | 'description-changed';

export interface ApiChange {
  readonly class: ChangeClass;
  readonly kind: ChangeKind;
  /**
   * What changed, e.g. `LeaseSpec.preferredHolder` or `deleteNamespacedLease ?gracePeriodSeconds` (the Lease
   * API, coordination.k8s.io/v1), `v1beta1.LeaseCandidateSpec.strategy` (another group version: its namespace
   * in the release entry), or `coordination.k8s.io/v1alpha2` for a group version that appears or disappears.
   */
  readonly subject: string;
  readonly detail: string;
}

export interface ReleaseDiff {
  readonly from: string;
  readonly to: string;
  readonly changes: readonly ApiChange[];
  readonly counts: { readonly breaking: number; readonly additive: number; readonly docsOnly: number };
}
