import { parseYaml } from '../../decode/yaml.js';
import { applyLease } from '../../operations/apply.js';
import { createLease } from '../../operations/create.js';
import type { ParsedBody } from '../../operations/decode-body.js';
import { decodeValue, parseBody } from '../../operations/decode-body.js';
import type { NonApplyPatchType } from '../../operations/patch.js';
import { patchLease } from '../../operations/patch.js';
import { updateLease } from '../../operations/update.js';
import type { Result } from '../../result.js';
import { err, ok } from '../../result.js';
import type { StatusError } from '../../status.js';
import { badRequest, unsupportedMediaType } from '../../status.js';
import { authorizationFailure } from '../authorization.js';
import { readBody } from '../body.js';
import { contentType } from '../negotiation.js';
import type { RequestContext } from '../request-context.js';
import type { WriteKind, WriteRequest } from '../request-options.js';
import { parseWriteOptions } from '../request-options.js';
import { sendStatus, warningHeaders } from '../respond.js';
import { fail, sendObject } from '../answer.js';
import { negotiateResponse } from './read.js';

const BODY_TYPES = 'application/json, application/yaml';
const PATCH_TYPES: Record<string, NonApplyPatchType | 'apply'> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

function unknownFormat(accepted: string): StatusError {
  return unsupportedMediaType(
    `the body of the request was in an unknown format - accepted media types include: ${accepted}`,
  );
}

/** Parses a create/replace body; a missing Content-Type is read as JSON, as most test clients expect. */
function parseObjectBody(text: string, type: string): Result<ParsedBody, StatusError> {
  if (type === 'application/yaml') {
    const yaml = parseYaml(text);
    return yaml.ok ? ok(yaml.value) : err(badRequest(`couldn't get version/kind; yaml parse error: ${yaml.error}`));
  }
  if (type === '' || type === 'application/json') return parseBody(text);
  return err(unknownFormat(BODY_TYPES));
}

async function readWrite(
  ctx: RequestContext,
  kind: WriteKind,
  isApply: boolean,
): Promise<{ options: Result<WriteRequest, StatusError>; body: Result<string, StatusError> }> {
  const options = parseWriteOptions(ctx.url.searchParams, ctx.req.headers['user-agent'], kind, isApply);
  const body = await readBody(ctx.req, ctx.res);
  return { options, body };
}

/** A create or replace body, decoded against the release's schema; the failure is the Status to send. */
async function decodeObjectWrite(
  ctx: RequestContext,
  kind: 'Create' | 'Update',
): Promise<
  Result<
    { options: WriteRequest; lease: Parameters<typeof createLease>[2]; headers: Record<string, string[]> },
    StatusError
  >
> {
  const { options, body } = await readWrite(ctx, kind, false);
  if (!options.ok) return options;
  if (!body.ok) return body;
  const parsed = parseObjectBody(body.value, contentType(ctx.req.headers['content-type']));
  if (!parsed.ok) return parsed;
  const decoded = decodeValue(
    parsed.value.value,
    parsed.value.duplicates,
    ctx.state.ops.schema,
    options.value.fieldValidation,
    parsed.value.numbers,
    ctx.state.ops.resource,
  );
  if (!decoded.ok) return decoded;
  return ok({ options: options.value, lease: decoded.value.lease, headers: warningHeaders(decoded.value.warnings) });
}

export async function serveCreate(ctx: RequestContext, namespace: string): Promise<void> {
  const denied = authorizationFailure(ctx, 'create', namespace);
  if (denied !== undefined) return sendStatus(ctx.res, denied);
  const representation = negotiateResponse(ctx);
  if (representation === undefined) return void ctx.req.resume();
  const write = await decodeObjectWrite(ctx, 'Create');
  if (!write.ok) return fail(ctx, write.error);
  const created = createLease(ctx.state.ops, namespace, write.value.lease, write.value.options);
  if (!created.ok) return fail(ctx, created.error, write.value.headers);
  sendObject(ctx, 201, representation, created.value.object, write.value.headers);
}

export async function serveUpdate(ctx: RequestContext, namespace: string, name: string): Promise<void> {
  const denied = authorizationFailure(ctx, 'update', namespace);
  if (denied !== undefined) return sendStatus(ctx.res, denied);
  const representation = negotiateResponse(ctx);
  if (representation === undefined) return void ctx.req.resume();
  const write = await decodeObjectWrite(ctx, 'Update');
  if (!write.ok) return fail(ctx, write.error);
  const updated = updateLease(ctx.state.ops, namespace, name, write.value.lease, write.value.options);
  if (!updated.ok) return fail(ctx, updated.error, write.value.headers);
  sendObject(ctx, 200, representation, updated.value.object, write.value.headers);
}

export async function servePatch(ctx: RequestContext, namespace: string, name: string): Promise<void> {
  const denied = authorizationFailure(ctx, 'patch', namespace);
  if (denied !== undefined) return sendStatus(ctx.res, denied);
  const representation = negotiateResponse(ctx);
  if (representation === undefined) return void ctx.req.resume();
  const patchType = PATCH_TYPES[contentType(ctx.req.headers['content-type'])];
  if (patchType === undefined) {
    ctx.req.resume();
    return fail(ctx, unknownFormat(Object.keys(PATCH_TYPES).join(', ')));
  }
  const isApply = patchType === 'apply';
  const { options, body } = await readWrite(ctx, 'Patch', isApply);
  if (!options.ok) return fail(ctx, options.error);
  if (!body.ok) return fail(ctx, body.error);
  const ops = ctx.state.ops;
  if (isApply) {
    const applied = applyLease(ops, namespace, name, body.value, options.value.force, options.value);
    if (!applied.ok) return fail(ctx, applied.error);
    return sendObject(
      ctx,
      applied.value.created ? 201 : 200,
      representation,
      applied.value.object,
      warningHeaders(applied.value.warnings),
    );
  }
  const patched = patchLease(ops, namespace, name, patchType, body.value, options.value);
  if (!patched.ok) return fail(ctx, patched.error);
  sendObject(ctx, 200, representation, patched.value.object, warningHeaders(patched.value.warnings));
}
