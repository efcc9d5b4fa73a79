// Namespace names: RFC 1123 labels, as apimachinery's ValidateNamespaceName (IsDNS1123Label).
import { dns1123LabelErrors } from '../names.js';

export function isDnsLabel(value: string): boolean {
  return dns1123LabelErrors(value).length === 0;
}

/** The namespaces every cluster has (kube-apiserver's system namespaces controller creates them). */
export const SYSTEM_NAMESPACES: readonly string[] = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
