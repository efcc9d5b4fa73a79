// Resource-level authorization for the current caller (discovery needs none).
import type { StatusError } from '../status.js';
import { authorize } from './auth.js';
import type { RequestContext } from './request-context.js';

export function authorizationFailure(
  ctx: RequestContext,
  verb: string,
  namespace: string | undefined,
): StatusError | undefined {
  return authorize(ctx.user, verb, namespace, ctx.state.ops.resource);
}
