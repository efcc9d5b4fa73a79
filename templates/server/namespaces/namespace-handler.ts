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
import { readBody } from '../http/body.js';
import { contentType } from '../http/negotiation.js';
import type { RequestContext } from '../http/request-context.js';
import { parseWriteOptions } from '../http/request-options.js';
import { sendJsonText, sendStatus } from '../http/respond.js';
import { NAMESPACE_KIND, namespaceNotFound } from './namespace-registry.js';

function parseNamespaceBody(text: string, type: string): Result<JsonValue, StatusError> {
  if (type === 'application/yaml') {
    const yaml = parseYaml(text);
    return yaml.ok ? ok(yaml.value.value) : err(badRequest(`couldn't get version/kind; yaml parse error: ${yaml.error}`));
  }
  if (type !== '' && type !== 'application/json') {
    return err(unsupportedMediaType('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml'));
  }
  const parsed = parseBody(text);
  return parsed.ok ? ok(parsed.value.value) : parsed;
}

/** The type check kube-apiserver's decoder makes before anything else looks at the object. */
function checkTypeMeta(value: JsonValue, text: string): Result<JsonValue, StatusError> {
  if (!isJsonObject(value)) return err(badRequest(`couldn't get version/kind; json parse error: the body is not an object`));
  const kind = value['kind'];
  if (typeof kind !== 'string' || kind === '') return err(badRequest(`Object 'Kind' is missing in '${text.trim()}'`));
  const apiVersion = value['apiVersion'];
  if (kind !== NAMESPACE_KIND || (apiVersion !== undefined && apiVersion !== 'v1')) {
    return err(badRequest(`the object provided is unrecognized (must be of type Namespace): ${String(apiVersion)}, Kind=${kind}`));
  }
  return ok(value);
}

async function createNamespace(ctx: RequestContext): Promise<void> {
  const options = parseWriteOptions(ctx.url.searchParams, ctx.req.headers['user-agent'], 'Create', false);
  const body = await readBody(ctx.req);
  if (!options.ok) return sendStatus(ctx.res, options.error);
  if (!body.ok) return sendStatus(ctx.res, body.error);
  const parsed = parseNamespaceBody(body.value, contentType(ctx.req.headers['content-type']));
  if (!parsed.ok) return sendStatus(ctx.res, parsed.error);
  const typed = checkTypeMeta(parsed.value, body.value);
  if (!typed.ok) return sendStatus(ctx.res, typed.error);
  const created = ctx.state.ops.namespaces.create(typed.value, options.value.dryRun);
  if (!created.ok) return sendStatus(ctx.res, created.error);
  sendJsonText(ctx.res, 201, JSON.stringify(created.value));
}

export async function serveNamespaces(ctx: RequestContext): Promise<void> {
  const method = ctx.req.method ?? 'GET';
  const watch = ctx.url.searchParams.get('watch');
  if (method === 'POST') return createNamespace(ctx);
  ctx.req.resume();
  if (method !== 'GET' || watch === 'true' || watch === '1') return sendStatus(ctx.res, methodNotAllowed());
  const registry = ctx.state.ops.namespaces;
  sendJsonText(ctx.res, 200, JSON.stringify({ kind: 'NamespaceList', apiVersion: 'v1', metadata: { resourceVersion: registry.resourceVersion }, items: registry.list() }));
}

export function serveNamespace(ctx: RequestContext, name: string): void {
  ctx.req.resume();
  if ((ctx.req.method ?? 'GET') !== 'GET') return sendStatus(ctx.res, methodNotAllowed());
  const found = ctx.state.ops.namespaces.get(name);
  if (found === undefined) return sendStatus(ctx.res, namespaceNotFound(name));
  sendJsonText(ctx.res, 200, JSON.stringify(found));
}
