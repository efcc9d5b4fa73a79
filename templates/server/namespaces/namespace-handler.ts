// core/v1 namespaces over HTTP: list, get and create (what `kubectl create namespace x` sends).
// Namespaces are cluster-scoped and carry no Lease semantics, so the forbidden tokens (which only
// lose access to Leases) may use them; watch, update, patch and delete answer 405 (see the registry).
import { parseYaml } from '../decode/yaml.js';
import type { JsonValue } from '../json.js';
import { isJsonObject } from '../json.js';
import { parseBody } from '../operations/decode-body.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { StatusError } from '../status.js';
import { badRequest, methodNotAllowed, unsupportedMediaType } from '../status.js';
import { readBodyBytes } from '../http/body.js';
import { contentType } from '../http/negotiation.js';
import type { RequestContext } from '../http/request-context.js';
import { parseListRequest, parseWriteOptions } from '../http/request-options.js';
import { matchesFields } from '../selectors/field-selector.js';
import { matchesLabels } from '../selectors/label-selector.js';
import { answer, fail } from '../http/answer.js';
import { negotiateResponse } from '../http/handlers/read.js';
import { payloadOf, sendJsonText, sendStatus } from '../http/respond.js';
import { PROTOBUF_CONTENT_TYPE, decodeNamespaceProtobuf } from './namespace-protobuf.js';
import { NAMESPACE_INFO, NAMESPACE_KIND, namespaceNotFound } from './namespace-registry.js';

function parseNamespaceBody(text: string, type: string): Result<JsonValue, StatusError> {
  if (type === 'application/yaml') {
    const yaml = parseYaml(text);
    return yaml.ok
      ? ok(yaml.value.value)
      : err(badRequest(`couldn't get version/kind; yaml parse error: ${yaml.error}`));
  }
  if (type !== '' && type !== 'application/json') {
    return err(
      unsupportedMediaType(
        `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, ${PROTOBUF_CONTENT_TYPE}`,
      ),
    );
  }
  const parsed = parseBody(text);
  return parsed.ok ? ok(parsed.value.value) : parsed;
}

/** The type check kube-apiserver's decoder makes before anything else looks at the object. */
function checkTypeMeta(value: JsonValue, text: string): Result<JsonValue, StatusError> {
  if (!isJsonObject(value))
    return err(badRequest(`couldn't get version/kind; json parse error: the body is not an object`));
  const kind = value['kind'];
  if (typeof kind !== 'string' || kind === '') return err(badRequest(`Object 'Kind' is missing in '${text.trim()}'`));
  const apiVersion = value['apiVersion'];
  if (kind !== NAMESPACE_KIND || (apiVersion !== undefined && apiVersion !== 'v1')) {
    return err(
      badRequest(
        `the object provided is unrecognized (must be of type Namespace): ${String(apiVersion)}, Kind=${kind}`,
      ),
    );
  }
  return ok(value);
}

function decodeNamespaceBody(bytes: Buffer, type: string): Result<JsonValue, StatusError> {
  if (type === PROTOBUF_CONTENT_TYPE) {
    const decoded = decodeNamespaceProtobuf(bytes);
    return decoded.ok
      ? ok(decoded.value)
      : err(badRequest(`the body of the request was not a valid protobuf Namespace: ${decoded.error}`));
  }
  const text = bytes.toString('utf8');
  const parsed = parseNamespaceBody(text, type);
  return parsed.ok ? checkTypeMeta(parsed.value, text) : parsed;
}

async function createNamespace(ctx: RequestContext): Promise<void> {
  const options = parseWriteOptions(ctx.url.searchParams, ctx.req.headers['user-agent'], 'Create', false);
  // Bytes, not text: a protobuf body would not survive a UTF-8 decode.
  const body = await readBodyBytes(ctx.req, ctx.res);
  if (!options.ok) return sendStatus(ctx.res, options.error);
  if (!body.ok) return sendStatus(ctx.res, body.error);
  const typed = decodeNamespaceBody(body.value, contentType(ctx.req.headers['content-type']));
  if (!typed.ok) return sendStatus(ctx.res, typed.error);
  const created = ctx.state.ops.namespaces.create(typed.value, options.value.dryRun);
  if (!created.ok) return sendStatus(ctx.res, created.error);
  sendJsonText(ctx.res, 201, JSON.stringify(created.value));
}

export async function serveNamespaces(ctx: RequestContext): Promise<void> {
  const method = ctx.req.method ?? 'GET';
  if (method === 'POST') return createNamespace(ctx);
  ctx.req.resume();
  // The same query parsing and selector validation as a Lease list (400 with apimachinery's messages).
  const request = parseListRequest(ctx.url.searchParams, undefined, false);
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
