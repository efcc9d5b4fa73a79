import { field } from '../lib/field.js';

/** What the hostile-body benchmark's parent and its server child exchange. */
export type HostileChildMessage = { type: 'listening'; url: string } | { type: 'rss'; maxRssBytes: number };

export function isHostileChildMessage(value: unknown): value is HostileChildMessage {
  const type = field(value, 'type');
  return type === 'listening' || type === 'rss';
}

/** A block-YAML Lease of about `bytes`, its bulk rows of 100 characters under one unknown field: a costly shape to compose. */
export function yamlLeaseBody(name: string, bytes: number): string {
  const rows = [
    'apiVersion: coordination.k8s.io/v1',
    'kind: Lease',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    '  extra:',
  ];
  let size = rows.join('\n').length;
  const value = 'x'.repeat(100);
  for (let i = 0; size < bytes; i++) {
    const row = `    k${i}: ${value}`;
    rows.push(row);
    size += row.length + 1;
  }
  return `${rows.join('\n')}\n`;
}
