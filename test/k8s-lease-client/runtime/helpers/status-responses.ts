// Status bodies and responses as kube-apiserver sends them, for the tests of the runtime's errors.
import type { KubernetesStatus } from '../../../../templates/k8s-lease-client/src/runtime/errors.js';

export const URL_ = 'http://127.0.0.1:8080/apis/coordination.k8s.io/v1/namespaces/default/leases/x';

export function status(
  code: number,
  reason: string,
  message: string,
  extra: Partial<KubernetesStatus> = {},
): KubernetesStatus {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code, ...extra };
}

export function jsonResponse(code: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status: code,
    headers: { 'content-type': 'application/json', ...headers },
  });
}
