// core/v1 namespaces over HTTP: list, get and create (what `kubectl create namespace x` sends).
// Namespaces are cluster-scoped and carry no Lease semantics, so the forbidden tokens (which only
// lose access to Leases) may use them; watch, update, patch and delete answer 405 (see the registry).
import { decodeProtobuf, parseText } from '../decode/parse-pool.js';
import type { JsonValue } from '../json.js';
import { isJsonObject } from '../json.js';
import { parseFailureStatus } from '../operations/decode-body.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { StatusError } from '../status.js';
import { badRequest, methodNotAllowed } from '../status.js';
import { readBodyBytes } from '../http/body.js';
import type { InputFormat } from '../http/input-media.js';
import { inputFormat, unknownFormat } from '../http/input-media.js';
import type { RequestContext } from '../http/request-context.js';
import { parseListRequest, parseWriteOptions } from '../http/request-options.js';
import { matchesFields } from '../selectors/field-selector.js';
import { matchesLabels } from '../selectors/label-selector.js';
import { answer, fail } from '../http/answer.js';
import { negotiateResponse } from '../http/handlers/read.js';
import { payloadOf, sendStatus } from '../http/respond.js';
import { checkBodyType } from '../operations/type-meta.js';
import { ETCD_MAX_REQUEST_BYTES, REQUEST_TOO_LARGE } from '../operations/storage-size.js';
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

/**
 * A Namespace is stored in etcd as a Lease is, so it meets the same 1.5 MiB limit and etcd's refusal
 * (operations/storage-size.ts). Here the body is measured, before it is parsed, so that nobody may keep
 * the parse workers busy with bodies that could never be stored (see the README's differences).
 */
async function decodeNamespaceBody(
  bytes: Buffer,
  type: InputFormat | undefined,
  user: string,
): Promise<Result<JsonValue, StatusError>> {
  if (type === undefined) return err(unknownFormat());
  if (bytes.length > ETCD_MAX_REQUEST_BYTES) return err(REQUEST_TOO_LARGE);
  return decodeNamespaceText(bytes, type, user);
}

async function createNamespace(ctx: RequestContext): Promise<void> {
  // createHandler negotiates the output before it reads the body.
  const representation = negotiateResponse(ctx);
  if (representation === undefined) return void ctx.req.resume();
  const options = parseWriteOptions(
    ctx.url.searchParams,
    ctx.req.headers['user-agent'],
    'Create',
    false,
    ctx.state.ops.valueStyle,
  );
  // Bytes, not text: a protobuf body would not survive a UTF-8 decode.
  const body = await readBodyBytes(ctx.req, ctx.res);
  if (!options.ok) return sendStatus(ctx.res, options.error);
  if (!body.ok) return sendStatus(ctx.res, body.error);
  const typed = await decodeNamespaceBody(body.value, inputFormat(ctx.req.headers['content-type']), ctx.user);
  if (!typed.ok) return sendStatus(ctx.res, typed.error);
  const created = ctx.state.ops.namespaces.create(typed.value, options.value.dryRun);
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
  if (method !== 'GET' || (request.ok && request.value.watch)) return sendStatus(ctx.res, methodNotAllowed());
  const representation = negotiateResponse(ctx);
  if (representation === undefined) return;
  if (!request.ok) return fail(ctx, request.error);
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

export function serveNamespace(ctx: RequestContext, name: string): void {
  ctx.req.resume();
  if ((ctx.req.method ?? 'GET') !== 'GET') return sendStatus(ctx.res, methodNotAllowed());
  const representation = negotiateResponse(ctx);
  if (representation === undefined) return;
  const found = ctx.state.ops.namespaces.get(name);
  if (found === undefined) return fail(ctx, namespaceNotFound(name));
  answer(ctx, 200, representation, { kind: 'object', object: found }, payloadOf(found), {}, NAMESPACE_INFO);
}
