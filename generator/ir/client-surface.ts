// What the generated client offers of an API: which operations get a function, which query parameters those
// functions take, which patch media types they speak. The emitters (paths, operations, watches, the release entry,
// the README) and the changelog all read these facts here, so they cannot disagree.
import { groupVersionNamespace } from '../shared/group-version.js';
import type { GroupVersionIr, OperationIr, ParameterIr, ReleaseIr } from './types.js';

/** Operations served by plain request/response functions; watches stream and get their own functions. */
const STREAMING_KINDS: ReadonlySet<OperationIr['kind']> = new Set(['watch', 'watchList', 'watchListForAllNamespaces']);

/** The operations the client exports a request/response function for: all but the deprecated `/watch/` ones. */
export function clientOperations(ir: GroupVersionIr): OperationIr[] {
  return ir.operations.filter((o) => !STREAMING_KINDS.has(o.kind));
}

/**
 * Query parameters that only mean something on a watch. The list functions
 * return one LeaseList, so they leave these to the watch functions instead of
 * accepting a flag that would turn the response into a stream.
 */
export function isWatchOnlyParameter(operation: OperationIr, parameter: ParameterIr): boolean {
  return (
    (operation.kind === 'list' || operation.kind === 'listForAllNamespaces') &&
    ['watch', 'allowWatchBookmarks', 'sendInitialEvents'].includes(parameter.name)
  );
}

/** The query parameters a client function accepts. */
export function queryParameters(operation: OperationIr): ParameterIr[] {
  return operation.queryParameters.filter((p) => !isWatchOnlyParameter(operation, p));
}

/** A patch media type the client speaks, as a variant of the patch argument typed by the runtime's `typeName`. */
export interface PatchVariant {
  readonly contentType: string;
  readonly typeName: string;
  /** Server-side apply, which takes `fieldManager` and `force`; the others must not set `force`. */
  readonly apply: boolean;
}

/** Patch media types the clients speak, each a variant of the patch argument. CBOR variants are not offered: the runtime speaks JSON. */
export const PATCH_VARIANTS: readonly PatchVariant[] = [
  { contentType: 'application/json-patch+json', typeName: 'JsonPatch', apply: false },
  { contentType: 'application/merge-patch+json', typeName: 'MergePatch', apply: false },
  { contentType: 'application/strategic-merge-patch+json', typeName: 'StrategicMergePatch', apply: false },
  { contentType: 'application/apply-patch+yaml', typeName: 'ApplyPatch', apply: true },
];

/** The patch variants an operation offers: those of its request body's media types the client speaks. */
export function patchVariants(operation: OperationIr): readonly PatchVariant[] {
  const offered = operation.requestBody?.contentTypes ?? [];
  return PATCH_VARIANTS.filter((v) => offered.includes(v.contentType));
}

/** The media types the JSON client sends or accepts: JSON bodies and the patch types it offers. */
const CLIENT_MEDIA_TYPES: ReadonlySet<string> = new Set([
  'application/json',
  ...PATCH_VARIANTS.map((v) => v.contentType),
]);

/** Whether the client ever sends or accepts `mediaType` (CBOR, protobuf and YAML bodies it never meets). */
export function isClientMediaType(mediaType: string): boolean {
  return CLIENT_MEDIA_TYPES.has(mediaType);
}

/**
 * Names of spec operations the package exports no function for (the deprecated `/watch/` operations): a
 * changelog for the client's users must not name functions they cannot import.
 */
export function unexportedOperations(irs: readonly ReleaseIr[]): ReadonlySet<string> {
  const gvs = irs.flatMap((ir) => ir.groupVersions);
  // Named as the diff names them: qualified by the group version's namespace outside the Lease API.
  const qualified = (gv: (typeof gvs)[number], name: string): string => {
    const namespace = groupVersionNamespace(gv);
    return namespace === undefined ? name : `${namespace}.${name}`;
  };
  const exported = new Set(gvs.flatMap((gv) => clientOperations(gv).map((o) => qualified(gv, o.name))));
  return new Set(
    gvs.flatMap((gv) => gv.operations.map((o) => qualified(gv, o.name))).filter((name) => !exported.has(name)),
  );
}
