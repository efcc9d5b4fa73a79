// A Lease manifest as a user writes it for kubectl, for the kubectl suites.

/** `spec` fields in order, then `extraSpec` lines as given (e.g. an unknown field for validation cases). */
export function leaseYaml(
  name: string,
  spec: Record<string, string | number>,
  labels: Record<string, string> = {},
  extraSpec = '',
): string {
  const labelLines = Object.entries(labels).map(([k, v]) => `    ${k}: "${v}"`);
  return [
    'apiVersion: coordination.k8s.io/v1',
    'kind: Lease',
    'metadata:',
    `  name: ${name}`,
    ...(labelLines.length > 0 ? ['  labels:', ...labelLines] : []),
    'spec:',
    ...Object.entries(spec).map(([k, v]) => `  ${k}: ${v}`),
    ...(extraSpec === '' ? [] : [extraSpec]),
    '',
  ].join('\n');
}
