/**
 * Patch arguments, discriminated by patch type, so that each is sent with its
 * own Content-Type and none is ever sent under another's: Kubernetes reads
 * the same bytes differently as a JSON patch, a merge patch or an apply.
 */

/** One RFC 6902 operation. */
export type JsonPatchOperation =
  | { readonly op: 'add' | 'replace' | 'test'; readonly path: string; readonly value: unknown }
  | { readonly op: 'remove'; readonly path: string }
  | { readonly op: 'move' | 'copy'; readonly from: string; readonly path: string };

/** Every field optional, recursively; `null` deletes a field in a merge patch (RFC 7386). */
export type MergePatchBody<T> =
  T extends ReadonlyArray<infer U>
    ? ReadonlyArray<MergePatchBody<U>>
    : T extends object
      ? { [K in keyof T]?: MergePatchBody<T[K]> | null }
      : T;

/** Every field optional, recursively: what a server-side apply configuration may state. */
export type ApplyConfiguration<T> =
  T extends ReadonlyArray<infer U>
    ? ReadonlyArray<ApplyConfiguration<U>>
    : T extends object
      ? { [K in keyof T]?: ApplyConfiguration<T[K]> }
      : T;

/** `application/json-patch+json`: an RFC 6902 operation list. */
export interface JsonPatch {
  /** Selects `application/json-patch+json`. */
  readonly type: 'json';
  /** The operations, applied in order; the patch fails as a whole if one does. */
  readonly operations: readonly JsonPatchOperation[];
}

/** `application/merge-patch+json`: RFC 7386 merge patch; lists are replaced whole. */
export interface MergePatch<T> {
  /** Selects `application/merge-patch+json`. */
  readonly type: 'merge';
  /** The fields to set; `null` deletes a field. */
  readonly body: MergePatchBody<T>;
}

/** `application/strategic-merge-patch+json`: like a merge patch, but lists with a merge key (ownerReferences by uid) are merged item by item. */
export interface StrategicMergePatch<T> {
  /** Selects `application/strategic-merge-patch+json`. */
  readonly type: 'strategic';
  /** The fields to set; `null` deletes a field, `$patch` directives change how an object or list is merged. */
  readonly body: MergePatchBody<T> & { readonly $patch?: 'replace' | 'delete' | 'merge' };
}

/** `application/apply-patch+yaml`: a server-side apply configuration (sent as JSON, which is YAML). apiVersion and kind are required by the server. */
export interface ApplyPatch<T> {
  /** Selects `application/apply-patch+yaml`. */
  readonly type: 'apply';
  /** The fields this field manager owns, with `apiVersion` and `kind`. */
  readonly body: ApplyConfiguration<T> & { readonly apiVersion: string; readonly kind: string };
}

/** Any of the four patch kinds, as the generated `patch…` operations accept them (discriminated by `type`). */
export type AnyPatch = JsonPatch | MergePatch<unknown> | StrategicMergePatch<unknown> | ApplyPatch<unknown>;

const CONTENT_TYPES = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
} as const;

/** The request body and Content-Type for a patch argument. */
export function patchRequest(
  patch: JsonPatch | { readonly type: 'merge' | 'strategic' | 'apply'; readonly body: unknown },
): { body: string; contentType: string } {
  // Own keys only: an untyped caller's `type: 'toString'` must not find Object.prototype's function.
  const contentType = Object.hasOwn(CONTENT_TYPES, patch.type) ? CONTENT_TYPES[patch.type] : undefined;
  if (contentType === undefined)
    throw new TypeError(`unknown patch type ${JSON.stringify((patch as { type: unknown }).type)}`);
  return { body: JSON.stringify(patch.type === 'json' ? patch.operations : patch.body), contentType };
}
