import type { ServerResponse } from 'node:http';

/** A Failure Status as kube-apiserver writes it, for the benchmarks' stand-in servers' refusals. */
export function sendFailureStatus(res: ServerResponse, code: number, reason: string, message: string): void {
  const body = JSON.stringify({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    code,
  });
  res.writeHead(code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
