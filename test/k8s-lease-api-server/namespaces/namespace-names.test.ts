// Namespace names are RFC 1123 labels (apimachinery ValidateNamespaceName → IsDNS1123Label); the system
// namespaces are those kube-apiserver's system namespaces controller keeps (pkg/controlplane/controller/
// systemnamespaces: metav1.NamespaceSystem, NamespacePublic, corev1.NamespaceNodeLease) plus "default".
import { describe, expect, it } from 'vitest';
import {
  SYSTEM_NAMESPACES,
  isDnsLabel,
} from '../../../templates/k8s-lease-api-server/src/namespaces/namespace-names.js';

describe('isDnsLabel', () => {
  it.each([
    ['default', true],
    ['kube-node-lease', true],
    ['0', true],
    ['a'.repeat(63), true],
    ['a'.repeat(64), false],
    ['Default', false],
    ['a.b', false],
    ['-a', false],
    ['', false],
  ])('%j → %s', (value, expected) => {
    expect(isDnsLabel(value)).toBe(expected);
  });
});

describe('SYSTEM_NAMESPACES', () => {
  it('names default, kube-system, kube-public and kube-node-lease, each a valid namespace name', () => {
    expect([...SYSTEM_NAMESPACES].sort()).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    for (const name of SYSTEM_NAMESPACES) expect(isDnsLabel(name)).toBe(true);
  });
});
