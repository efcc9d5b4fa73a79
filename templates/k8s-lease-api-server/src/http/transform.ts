// The response transformations a client asks for in Accept (as=Table, as=PartialObjectMetadata,
// as=PartialObjectMetadataList), as k8s.io/apiserver/pkg/endpoints/handlers/response.go does them:
// optionsForTransform (TableOptions from the query, validated), doTransformObject, asTable,
// asPartialObjectMetadata and asPartialObjectMetadataList, with their errors worded as there.
import type { JsonObject } from '../json.js';
import { objectAt } from '../json.js';
import type { ResourceInfo } from '../lease-meta.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { StatusError } from '../status.js';
import { badRequest, fieldErrorMessage, notAcceptable } from '../status.js';
import type { Target } from './negotiation.js';
import { parseQueryBool } from './request-options.js';
import type { IncludeObject, TableMeta } from './table.js';
import { leaseTable } from './table.js';

export interface TableOptions {
  include: IncludeObject;
  /** TableOptions.NoHeaders (query parameter "-", as its json:"-" tag makes the generated conversion read it). */
  noHeaders: boolean;
}

/**
 * optionsForTransform: only a Table target reads TableOptions from the query (the first includeObject
 * value); ValidateTableOptions refuses anything but Metadata, Object, None or empty with a 400.
 */
export function tableOptionsFor(
  target: Target | undefined,
  query: URLSearchParams,
): Result<TableOptions | undefined, StatusError> {
  if (target?.kind !== 'Table') return ok(undefined);
  const include = query.get('includeObject') ?? '';
  const noHeaders = parseQueryBool(query.get('-')) === true;
  if (include === '' || include === 'Metadata' || include === 'Object' || include === 'None')
    return ok({ include: include === '' ? 'Metadata' : include, noHeaders });
  const message = fieldErrorMessage({
    type: 'Invalid',
    field: 'includeObject',
    value: include,
    detail: "must be 'Metadata', 'Object', 'None', or empty",
  });
  return err(badRequest(`Unable to convert to Table as requested: ${message}`));
}

/** What a handler answers with before any transformation: one stored object, or a page of a list. */
export type Subject = { kind: 'object'; object: JsonObject } | { kind: 'list'; items: JsonObject[]; meta: TableMeta };

export interface TransformContext {
  resource: ResourceInfo;
  now: number;
}

/** The %T of the internal object kube-apiserver names in its 406s (e.g. *coordination.LeaseList). */
function goType(subject: Subject, resource: ResourceInfo): string {
  const pkg = resource.groupVersion.includes('/') ? (resource.groupVersion.split('.')[0] ?? '') : 'core';
  return `*${pkg}.${subject.kind === 'list' ? resource.listKind : resource.kind}`;
}

/** meta.AsPartialObjectMetadata with the target's group version. */
function partial(object: JsonObject, version: string): JsonObject {
  return {
    kind: 'PartialObjectMetadata',
    apiVersion: `meta.k8s.io/${version}`,
    metadata: objectAt(object, 'metadata') ?? {},
  };
}

function listMetadata(meta: TableMeta): JsonObject {
  const metadata: JsonObject = { resourceVersion: meta.resourceVersion };
  if (meta.continueToken !== undefined) metadata['continue'] = meta.continueToken;
  if (meta.remainingItemCount !== undefined) metadata['remainingItemCount'] = meta.remainingItemCount;
  return metadata;
}

/**
 * doTransformObject for a target (a Status is never passed here). The object of a single-object
 * subject is the stored one, without kind and apiVersion.
 */
export function transformObject(
  subject: Subject,
  target: Target,
  options: TableOptions | undefined,
  ctx: TransformContext,
): Result<JsonObject, StatusError> {
  switch (target.kind) {
    case 'PartialObjectMetadata':
      if (subject.kind === 'list')
        return err(
          notAcceptable(
            `you requested PartialObjectMetadata, but the requested object is a list (${goType(subject, ctx.resource)})`,
          ),
        );
      return ok(partial(subject.object, target.version));
    case 'PartialObjectMetadataList':
      if (subject.kind === 'object')
        return err(
          notAcceptable(
            `you requested PartialObjectMetadataList, but the requested object is not a list (${goType(subject, ctx.resource)})`,
          ),
        );
      // Built by appending, so an empty list's items are Go's nil slice: "items":null.
      return ok({
        kind: 'PartialObjectMetadataList',
        apiVersion: `meta.k8s.io/${target.version}`,
        metadata: listMetadata(subject.meta),
        items: subject.items.length === 0 ? null : subject.items.map((item) => partial(item, target.version)),
      });
    case 'Table': {
      const include = options?.include ?? 'Metadata';
      const noHeaders = options?.noHeaders === true;
      if (subject.kind === 'list')
        return ok(
          leaseTable(subject.items, { ...subject.meta, noHeaders }, ctx.now, include, target.version, ctx.resource),
        );
      // GenerateTable takes a single object's resourceVersion from the object itself.
      const resourceVersion = String(objectAt(subject.object, 'metadata')?.['resourceVersion'] ?? '');
      return ok(
        leaseTable([subject.object], { resourceVersion, noHeaders }, ctx.now, include, target.version, ctx.resource),
      );
    }
  }
}
