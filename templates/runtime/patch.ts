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
  readonly type: 'json';
  readonly operations: readonly JsonPatchOperation[];
}

/** `application/merge-patch+json`: RFC 7386 merge patch; lists are replaced whole. */
export interface MergePatch<T> {
  readonly type: 'merge';
  readonly body: MergePatchBody<T>;
}

/** `application/strategic-merge-patch+json`: like a merge patch, but lists with a merge key (ownerReferences by uid) are merged item by item. */
export interface StrategicMergePatch<T> {
  readonly type: 'strategic';
  readonly body: MergePatchBody<T> & { readonly $patch?: 'replace' | 'delete' | 'merge' };
}

/** `application/apply-patch+yaml`: a server-side apply configuration (sent as JSON, which is YAML). apiVersion and kind are required by the server. */
export interface ApplyPatch<T> {
  readonly type: 'apply';
  readonly body: ApplyConfiguration<T> & { readonly apiVersion: string; readonly kind: string };
}

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
  const contentType = CONTENT_TYPES[patch.type];
  if (contentType === undefined)
    throw new TypeError(`unknown patch type ${JSON.stringify((patch as { type: unknown }).type)}`);
  return { body: JSON.stringify(patch.type === 'json' ? patch.operations : patch.body), contentType };
}
