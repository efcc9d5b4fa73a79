import type { GroupVersion } from './group-version.js';

/**
 * README example bodies of one kind, as TypeScript source. Only where a body derived from the schema (its required
 * fields) would show nothing a user of the kind cares about: a Lease requires no field at all.
 */
export interface KindExamples {
  /** The members of a create's `body` besides `metadata` (the example names the object there): `spec: { … }`. */
  readonly create: string;
  /** The body of a merge patch. */
  readonly mergePatch: string;
}

/**
 * What the generator emits an API for: one API group, the versions and kinds of it to cover, and where its
 * modules sit. Everything else (operations, plurals, scope, models) is read from the spec.
 */
export interface GenerationTarget {
  /** The API group, e.g. `coordination.k8s.io`. */
  readonly group: string;
  /** The version whose modules sit at a release's root (the others get a namespace each); every release must serve it. */
  readonly rootVersion: string;
  /** The versions to generate besides the root one; undefined: every version a release serves. */
  readonly versions?: readonly string[];
  /** The kinds to generate (`x-kubernetes-group-version-kind`'s kind); undefined: every kind of the group. */
  readonly kinds?: readonly string[];
  /** README example bodies by kind; a kind not listed gets one built from its schema's required fields. */
  readonly examples?: ReadonlyMap<string, KindExamples>;
}

/** The group version whose modules sit at a release's root. */
export function rootGroupVersion(target: GenerationTarget): GroupVersion {
  return { group: target.group, version: target.rootVersion };
}

/** Whether the target covers `version` of its group. */
export function coversVersion(target: GenerationTarget, version: string): boolean {
  return version === target.rootVersion || target.versions === undefined || target.versions.includes(version);
}

/** Whether the target covers `kind`; an operation that names no kind (a group version's discovery) is always covered. */
export function coversKind(target: GenerationTarget, kind: string | undefined): boolean {
  return kind === undefined || target.kinds === undefined || target.kinds.includes(kind);
}

/**
 * The per-group OpenAPI v3 document upstream publishes for the root version
 * (kubernetes/kubernetes api/openapi-spec/v3/, e.g. `apis__coordination.k8s.io__v1_openapi.json`).
 */
export function openApiV3FileName(target: GenerationTarget): string {
  return `apis__${target.group}__${target.rootVersion}_openapi.json`;
}
