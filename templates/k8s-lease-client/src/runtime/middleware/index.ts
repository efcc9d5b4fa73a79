export type { ApiMiddlewareOptions } from './pipeline.js';
export { withApiMiddleware } from './pipeline.js';
export type { RetryBudget, RetryEvent, RetryOptions } from './retries.js';
export { withRetries } from './retries.js';
export type { UserAgentInfo } from './user-agent.js';
export { defaultUserAgent } from './user-agent.js';
export type { ApiWarning, WarningHeader } from './warnings.js';
export { logOncePerText, parseWarningHeaders, withWarnings } from './warnings.js';
