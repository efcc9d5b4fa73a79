// Copied by lease-api-generator from templates/runtime/middleware/index.ts. DO NOT EDIT: edit that file and run `npm run generate`.
export type { ApiMiddlewareOptions } from './pipeline.js';
export { withApiMiddleware } from './pipeline.js';
export type { RetryBudget, RetryEvent, RetryOptions } from './retries.js';
export { withRetries } from './retries.js';
export type { UserAgentInfo } from './userAgent.js';
export { defaultUserAgent } from './userAgent.js';
export type { ApiWarning, WarningHeader } from './warnings.js';
export { logOncePerText, parseWarningHeaders, withWarnings } from './warnings.js';
