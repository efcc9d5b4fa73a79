// WithAuditInit (k8s.io/apiserver/pkg/endpoints/filters/audit_init.go), the outermost filter: every response
// carries Audit-ID — the request's own Audit-ID header as sent (untruncated), or a new UUID when it has none
// or an empty one. Go's Header.Set canonicalises the name to Audit-Id.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const AUDIT_ID_HEADER = 'Audit-Id';

export function setAuditId(req: IncomingMessage, res: ServerResponse): void {
  // Header.Get: the first of repeated headers, where Node would join them with ", ".
  const sent = req.headersDistinct['audit-id']?.[0] ?? '';
  res.setHeader(AUDIT_ID_HEADER, sent === '' ? randomUUID() : sent);
}
