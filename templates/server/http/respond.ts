// Writing responses: JSON text with the headers the real API server sends.
import type { ServerResponse } from 'node:http';
import type { StatusError } from '../status.js';
import { statusObject } from '../status.js';

export function sendJsonText(res: ServerResponse, code: number, json: string, headers: Record<string, string | string[]> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const body = Buffer.from(json, 'utf8');
  res.writeHead(code, {
    'Content-Type': 'application/json',
    'Content-Length': body.length,
    'Cache-Control': 'no-cache, private',
    ...headers,
  });
  res.end(body);
}

export function sendStatus(res: ServerResponse, error: StatusError, headers: Record<string, string | string[]> = {}): void {
  sendJsonText(res, error.code, JSON.stringify(statusObject(error)), headers);
}

/** Warning header values in RFC 7234 form, as k8s.io/apiserver's warning recorder emits them. */
export function warningHeaders(warnings: string[]): Record<string, string[]> {
  return warnings.length === 0 ? {} : { Warning: warnings.map((w) => `299 - ${JSON.stringify(w)}`) };
}
