// core/v1 namespaces over HTTP: list, watch, get, create (what `kubectl create namespace x` sends),
// delete, the finalize subresource (PUT) and the status subresource (GET). Namespaces are cluster-scoped
// and carry no Lease semantics, so the forbidden tokens (which only lose access to Leases) may use them;
// update and patch answer 405.
import { decodeProtobuf, parseText } from '../decode/parse-pool.js';
import type { JsonValue } from '../json.js';
import { isJsonObject } from '../json.js';
import { parseFailureStatus } from '../operations/decode-body.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { StatusError } from '../status.js';
import { badRequest, invalid, methodNotAllowed } from '../status.js';
import type { FieldError } from '../status.js';
import { readDeleteOptions } from '../http/handlers/delete.js';
import { qualifiedNameErrors } from '../names.js';
import { GC_FINALIZERS, KUBERNETES_FINALIZER } from './namespace-delete.js';
import { namespaceConflict } from './namespace-errors.js';
import { serveWatchRequest } from '../http/handlers/watch-request.js';
import { OBJECT_MODIFIED } from '../status.js';
import { readBodyBytes } from '../http/body.js';
import type { InputFormat } from '../http/input-media.js';
import { inputFormat, unknownFormat } from '../http/input-media.js';
import type { RequestContext } from '../http/request-context.js';
import type { WriteRequest } from '../http/request-options.js';
import { parseListRequest, parseWriteOptions } from '../http/request-options.js';
import { matchesFields } from '../selectors/field-selector.js';
import { matchesLabels } from '../selectors/label-selector.js';
import { answer, fail } from '../http/answer.js';
import { negotiateResponse } from '../http/handlers/read.js';
import { payloadOf, sendStatus } from '../http/respond.js';
import { checkBodyType } from '../operations/type-meta.js';
import { ETCD_MAX_REQUEST_BYTES } from '../operations/storage-size.js';
import type { TargetType } from '../operations/type-meta.js';
import { NAMESPACE_INFO, NAMESPACE_KIND, namespaceNotFound } from './namespace-registry.js';

const NAMESPACE_TYPE: TargetType = { group: '', version: 'v1', kind: NAMESPACE_KIND, internalPackage: 'core' };

async function parseNamespaceBody(
  text: string,
  format: 'json' | 'yaml',
  user: string,
): Promise<Result<JsonValue, StatusError>> {
  // Off the event loop when large (parse-pool.ts): any caller, even one refused Leases, may send one.
  const parsed = await parseText(text, format, user);
  if (parsed.ok) return ok(parsed.value.value);
  return err(
    parseFailureStatus(parsed.error, (message) =>
      badRequest(`couldn't get version/kind; ${format} parse error: ${message}`),
    ),
  );
}

/**
 * The type check kube-apiserver's decoder makes before anything else looks at the object: kind and
 * apiVersion default to the URL's (v1 Namespace), as the Python client's V1Namespace(metadata=…) relies on.
 */
function checkTypeMeta(value: JsonValue): Result<JsonValue, StatusError> {
  if (!isJsonObject(value))
    return err(badRequest(`couldn't get version/kind; json parse error: the body is not an object`));
  const checked = checkBodyType(value['kind'], value['apiVersion'], NAMESPACE_TYPE);
  if (!checked.ok) return err(badRequest(checked.error));
  return ok({ ...value, kind: NAMESPACE_KIND, apiVersion: 'v1' });
}

async function decodeNamespaceText(
  bytes: Buffer,
  type: InputFormat,
  user: string,
): Promise<Result<JsonValue, StatusError>> {
  if (type === 'protobuf') {
    const decoded = await decodeProtobuf(bytes, { kind: 'namespace' }, user);
    return decoded.ok ? ok(decoded.value.value) : err(parseFailureStatus(decoded.error, badRequest));
  }
  const parsed = await parseNamespaceBody(bytes.toString('utf8'), type, user);
  return parsed.ok ? checkTypeMeta(parsed.value) : parsed;
}

async function decodeNamespaceBody(
  bytes: Buffer,
  type: InputFormat | undefined,
  user: string,
): Promise<Result<JsonValue, StatusError>> {
  if (type === undefined) return err(unknownFormat());
  return decodeNamespaceText(bytes, type, user);
}

/**
 * A Namespace is stored in etcd as a Lease is, so it could never be stored past etcd's 1.5 MiB
 * (operations/storage-size.ts). Its body is held to that size as it is read, with limitedReadBody's 413,
 * so that nobody may keep the parse workers busy, or the server reading, with bodies that could never be
 * stored (see the README's differences).
 */
export const NAMESPACE_BODY_BYTES: number = ETCD_MAX_REQUEST_BYTES;

/** A namespace write's options and decoded body, read in the order createHandler and updateHandler read them. */
async function readNamespaceWrite(
  ctx: RequestContext,
  kind: 'Create' | 'Update',
): Promise<Result<{ options: WriteRequest; value: JsonValue }, StatusError>> {
  const { searchParams } = ctx.url;
  const options = parseWriteOptions(searchParams, ctx.req.headers['user-agent'], kind, false, ctx.state.ops.valueStyle);
  // Bytes, not text: a protobuf body would not survive a UTF-8 decode.
  const body = await readBodyBytes(ctx.req, ctx.res, NAMESPACE_BODY_BYTES);
  if (!options.ok) return options;
  if (!body.ok) return body;
  const typed = await decodeNamespaceBody(body.value, inputFormat(ctx.req.headers['content-type']), ctx.user);
  return typed.ok ? ok({ options: options.value, value: typed.value }) : typed;
}

async function createNamespace(ctx: RequestContext): Promise<void> {
  // createHandler negotiates the output before it reads the body.
  const representation = negotiateResponse(ctx);
  if (representation === undefined) return void ctx.req.resume();
  const write = await readNamespaceWrite(ctx, 'Create');
  if (!write.ok) return sendStatus(ctx.res, write.error);
  const created = ctx.state.ops.namespaces.create(write.value.value, write.value.options.dryRun);
  if (!created.ok) return sendStatus(ctx.res, created.error);
  const object = created.value;
  answer(ctx, 201, representation, { kind: 'object', object }, payloadOf(object), {}, NAMESPACE_INFO);
}

export async function serveNamespaces(ctx: RequestContext): Promise<void> {
  const method = ctx.req.method ?? 'GET';
  if (method === 'POST') return createNamespace(ctx);
  ctx.req.resume();
  // The same query parsing and selector validation as a Lease list (400 with apimachinery's messages).
  const { watchList, ops } = ctx.state;
  const request = parseListRequest(ctx.url.searchParams, undefined, false, watchList, ops.valueStyle);
  if (method !== 'GET') return sendStatus(ctx.res, methodNotAllowed());
  const representation = negotiateResponse(ctx);
  if (representation === undefined) return;
  if (!request.ok) return fail(ctx, request.error);
  // A watch (kubectl delete --wait lists and watches the namespace by metadata.name) streams the namespace store.
  if (request.value.watch)
    return serveWatchRequest(
      ctx,
      request.value,
      representation,
      { store: ctx.state.ops.namespaces.store, resource: NAMESPACE_INFO },
      undefined,
    );
  const { labels, fields } = request.value;
  const registry = ctx.state.ops.namespaces;
  const items = registry
    .list()
    .filter((ns) => {
      const metadata = isJsonObject(ns['metadata']) ? ns['metadata'] : {};
      const name = typeof metadata['name'] === 'string' ? metadata['name'] : '';
      const nsLabels = isJsonObject(metadata['labels']) ? (metadata['labels'] as Record<string, string>) : {};
      return matchesFields(fields, name, '') && matchesLabels(labels, nsLabels);
    })
    // Items of a typed list carry no kind or apiVersion of their own.
    .map(({ kind: _kind, apiVersion: _apiVersion, ...item }) => item);
  const list = {
    kind: 'NamespaceList',
    apiVersion: 'v1',
    metadata: { resourceVersion: registry.resourceVersion },
    items,
  };
  const subject = { kind: 'list' as const, items, meta: { resourceVersion: registry.resourceVersion } };
  answer(ctx, 200, representation, subject, payloadOf(list), {}, NAMESPACE_INFO);
}

function serveNamespaceGet(ctx: RequestContext, name: string): void {
  ctx.req.resume();
  const representation = negotiateResponse(ctx);
  if (representation === undefined) return;
  const found = ctx.state.ops.namespaces.get(name);
  if (found === undefined) return fail(ctx, namespaceNotFound(name));
  answer(ctx, 200, representation, { kind: 'object', object: found }, payloadOf(found), {}, NAMESPACE_INFO);
}

/**
 * DELETE (REST.Delete): 200 with the namespace, marked or as it was last; 202 when it stays and the
 * caller asked for dependents to go first (orphanDependents false), as the delete handler answers.
 */
async function deleteNamespace(ctx: RequestContext, name: string): Promise<void> {
  const representation = negotiateResponse(ctx);
  if (representation === undefined) return void ctx.req.resume();
  const options = await readDeleteOptions(ctx);
  if (!options.ok) return fail(ctx, options.error);
  const deleted = ctx.state.ops.namespaces.delete(name, options.value);
  if (!deleted.ok) return fail(ctx, deleted.error);
  const { object } = deleted.value;
  const code = !deleted.value.deleted && options.value.orphanDependents === false ? 202 : 200;
  answer(ctx, code, representation, { kind: 'object', object }, payloadOf(object), {}, NAMESPACE_INFO);
}

const STANDARD_FINALIZERS: readonly string[] = [KUBERNETES_FINALIZER, ...GC_FINALIZERS];

/** ValidateNamespaceFinalizeUpdate: each finalizer a qualified name, one without a "/" a standard one. */
function finalizerErrors(finalizers: string[]): FieldError[] {
  return finalizers.flatMap((value, i) => {
    const field = `spec.finalizers[${i}]`;
    const errors: FieldError[] = qualifiedNameErrors(value).map((detail) => ({
      type: 'Invalid',
      field,
      value,
      detail,
    }));
    if (!value.includes('/') && !STANDARD_FINALIZERS.includes(value))
      errors.push({
        type: 'Invalid',
        field,
        value,
        detail: 'name is neither a standard finalizer name nor is it fully qualified',
      });
    return errors;
  });
}

/** The finalize update's body: its name (must be the URL's), resourceVersion and spec.finalizers. */
function finalizeRequest(
  body: JsonValue,
  name: string,
): Result<{ finalizers: string[]; resourceVersion: string }, StatusError> {
  const object = isJsonObject(body) ? body : {};
  const meta = isJsonObject(object['metadata']) ? object['metadata'] : {};
  const given = typeof meta['name'] === 'string' ? meta['name'] : '';
  if (given !== name)
    return err(badRequest(`the name of the object (${given}) does not match the name on the URL (${name})`));
  const spec = isJsonObject(object['spec']) ? object['spec'] : {};
  const list = spec['finalizers'] ?? [];
  if (!Array.isArray(list) || list.some((f) => typeof f !== 'string'))
    return err(badRequest('spec.finalizers: must be a list of strings'));
  const finalizers = list.filter((f): f is string => typeof f === 'string');
  const errors = finalizerErrors(finalizers);
  if (errors.length > 0) return err(invalid(name, errors, NAMESPACE_KIND));
  return ok({
    finalizers,
    resourceVersion: typeof meta['resourceVersion'] === 'string' ? meta['resourceVersion'] : '',
  });
}

/** PUT …/finalize (FinalizeREST.Update): spec.finalizers replaced; the namespace goes once none are left. */
async function finalizeNamespace(ctx: RequestContext, name: string): Promise<void> {
  const representation = negotiateResponse(ctx);
  if (representation === undefined) return void ctx.req.resume();
  const write = await readNamespaceWrite(ctx, 'Update');
  if (!write.ok) return fail(ctx, write.error);
  const options = write.value.options;
  const request = finalizeRequest(write.value.value, name);
  if (!request.ok) return fail(ctx, request.error);
  const registry = ctx.state.ops.namespaces;
  const current = registry.get(name);
  if (current === undefined) return fail(ctx, namespaceNotFound(name));
  const liveRv = isJsonObject(current['metadata']) ? current['metadata']['resourceVersion'] : undefined;
  // AllowUnconditionalUpdate: an empty resourceVersion updates whatever is stored.
  if (request.value.resourceVersion !== '' && request.value.resourceVersion !== liveRv)
    return fail(ctx, namespaceConflict(name, OBJECT_MODIFIED));
  const done = registry.finalize(name, request.value.finalizers, options.dryRun);
  if (!done.ok) return fail(ctx, done.error);
  const { object } = done.value;
  answer(ctx, 200, representation, { kind: 'object', object }, payloadOf(object), {}, NAMESPACE_INFO);
}

export function serveNamespace(
  ctx: RequestContext,
  name: string,
  subresource: 'finalize' | 'status' | undefined,
): Promise<void> | void {
  const method = ctx.req.method ?? 'GET';
  if (subresource === undefined && method === 'GET') return serveNamespaceGet(ctx, name);
  if (subresource === undefined && method === 'DELETE') return deleteNamespace(ctx, name);
  if (subresource === 'status' && method === 'GET') return serveNamespaceGet(ctx, name);
  if (subresource === 'finalize' && method === 'PUT') return finalizeNamespace(ctx, name);
  ctx.req.resume();
  return sendStatus(ctx.res, methodNotAllowed());
}
