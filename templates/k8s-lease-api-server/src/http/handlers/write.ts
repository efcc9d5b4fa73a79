import { decodeProtobuf, parseText } from '../../decode/parse-pool.js';
import { parseApplyBodyAsync } from '../../operations/apply-body.js';
import { applyLease } from '../../operations/apply.js';
import { createLease } from '../../operations/create.js';
import type { ParsedBody } from '../../operations/decode-body.js';
import { decodeValue, parseFailureStatus } from '../../operations/decode-body.js';
import type { NonApplyPatchType } from '../../operations/patch.js';
import { patchLease } from '../../operations/patch.js';
import { updateLease } from '../../operations/update.js';
import type { Result } from '../../result.js';
import { err, ok } from '../../result.js';
import type { StatusError } from '../../status.js';
import { badRequest } from '../../status.js';
import { authorizationFailure } from '../authorization.js';
import { readBodyBytes } from '../body.js';
import type { InputFormat } from '../input-media.js';
import { inputFormat, unknownFormat } from '../input-media.js';
import { contentType } from '../negotiation.js';
import type { RequestContext } from '../request-context.js';
import type { WriteKind, WriteRequest } from '../request-options.js';
import { parseWriteOptions } from '../request-options.js';
import { sendStatus, warningHeaders } from '../respond.js';
import { fail, sendObject } from '../answer.js';
import { negotiateResponse } from './read.js';
import { strictShapeOf } from '../../decode/strict-shape.js';

const PATCH_TYPES: Record<string, NonApplyPatchType | 'apply'> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

/** Parses a create/replace body; a missing Content-Type is read as JSON, as most test clients expect. */
async function parseObjectBody(
  bytes: Buffer,
  type: InputFormat | undefined,
  ctx: RequestContext,
): Promise<Result<ParsedBody, StatusError>> {
  if (type === undefined) return err(unknownFormat());
  // The shape has a JSON body's strict errors collected in the order the decoder meets them.
  const parsed =
    type === 'protobuf'
      ? await decodeProtobuf(bytes, { kind: 'resource', resource: ctx.state.ops.resource }, ctx.user)
      : await parseText(bytes.toString('utf8'), type, ctx.user, strictShapeOf(ctx.state.ops.schema));
  if (parsed.ok) return ok({ duplicates: [], ...parsed.value });
  return err(
    parseFailureStatus(parsed.error, (message) =>
      badRequest(`couldn't get version/kind; ${type} parse error: ${message}`),
    ),
  );
}

async function readWrite(
  ctx: RequestContext,
  kind: WriteKind,
  isApply: boolean,
): Promise<{ options: Result<WriteRequest, StatusError>; body: Result<Buffer, StatusError> }> {
  const options = parseWriteOptions(
    ctx.url.searchParams,
    ctx.req.headers['user-agent'],
    kind,
    isApply,
    ctx.state.ops.valueStyle,
  );
  // Bytes, not text: a protobuf body would not survive a UTF-8 decode.
  const body = await readBodyBytes(ctx.req, ctx.res);
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
  const format = inputFormat(ctx.req.headers['content-type']);
  const parsed = await parseObjectBody(body.value, format, ctx);
  if (!parsed.ok) return parsed;
  const decoded = decodeValue(
    parsed.value.value,
    parsed.value.duplicates,
    ctx.state.ops.schema,
    // The protobuf serializer has no strict mode: fields the release does not know are dropped without a word.
    format === 'protobuf' ? 'Ignore' : options.value.fieldValidation,
    parsed.value.numbers,
    ctx.state.ops.resource,
    parsed.value.duplicateLines,
    parsed.value.strictErrors,
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
  // 201 when the PUT created the object (AllowCreateOnUpdate), as UpdateResource's wasCreated.
  const code = updated.value.created ? 201 : 200;
  sendObject(ctx, code, representation, updated.value.object, write.value.headers);
}

export async function servePatch(ctx: RequestContext, namespace: string, name: string): Promise<void> {
  const denied = authorizationFailure(ctx, 'patch', namespace);
  if (denied !== undefined) return sendStatus(ctx.res, denied);
  const representation = negotiateResponse(ctx);
  if (representation === undefined) return void ctx.req.resume();
  const patchType = PATCH_TYPES[contentType(ctx.req.headers['content-type'])];
  if (patchType === undefined) {
    ctx.req.resume();
    return fail(ctx, unknownFormat(Object.keys(PATCH_TYPES)));
  }
  const isApply = patchType === 'apply';
  const { options, body } = await readWrite(ctx, 'Patch', isApply);
  if (!options.ok) return fail(ctx, options.error);
  if (!body.ok) return fail(ctx, body.error);
  const ops = ctx.state.ops;
  const text = body.value.toString('utf8');
  if (isApply) {
    const config = await parseApplyBodyAsync(text, ctx.user);
    if (!config.ok) return fail(ctx, config.error);
    const applied = applyLease(ops, namespace, name, text, options.value.force, options.value, config);
    if (!applied.ok) return fail(ctx, applied.error);
    return sendObject(
      ctx,
      applied.value.created ? 201 : 200,
      representation,
      applied.value.object,
      warningHeaders(applied.value.warnings),
    );
  }
  // A syntax error is worded per patch type by patchLease; the worker's own failures answer here.
  const parsed = await parseText(text, 'json', ctx.user);
  if (!parsed.ok && parsed.error.kind !== 'syntax') return fail(ctx, parseFailureStatus(parsed.error, badRequest));
  const patch = parsed.ok ? parsed : err(parsed.error.kind === 'syntax' ? parsed.error.message : '');
  const patched = patchLease(ops, namespace, name, patchType, patch, options.value);
  if (!patched.ok) return fail(ctx, patched.error);
  sendObject(ctx, 200, representation, patched.value.object, warningHeaders(patched.value.warnings));
}
