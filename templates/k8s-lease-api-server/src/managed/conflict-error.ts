// The 409 an apply conflict answers with: apimachinery managedfields/internal/conflict.go
// NewConflictError (message and one FieldManagerConflict cause per field). Kubernetes behaviour.
import { pathToString } from './field-set.js';
import { parseIdentifier } from './managed-fields.js';
import type { Conflict } from './updater.js';

export interface ConflictReport {
  message: string;
  causes: { reason: string; message: string; field: string }[];
}

/** printManager: the manager's name, its subresource, and for Update entries the API version. */
export function printManager(identifier: string): string {
  const info = parseIdentifier(identifier);
  let out = JSON.stringify(info.manager);
  if (info.subresource !== undefined) out = `${out} with subresource ${JSON.stringify(info.subresource)}`;
  return info.operation === 'Update' ? `${out} using ${info.apiVersion ?? ''}` : out;
}

export function describeConflicts(conflicts: Conflict[]): ConflictReport {
  const causes = conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${printManager(c.manager)}`,
    field: pathToString(c.path),
  }));
  const first = conflicts[0];
  if (conflicts.length === 1 && first !== undefined) {
    return {
      message: `Apply failed with 1 conflict: conflict with ${printManager(first.manager)}: ${pathToString(first.path)}`,
      causes,
    };
  }
  // Grouped by manager identifier, identifiers in sorted order (getConflictMessage).
  const byManager = new Map<string, string[]>();
  for (const c of conflicts) {
    const paths = byManager.get(c.manager);
    if (paths === undefined) byManager.set(c.manager, [pathToString(c.path)]);
    else paths.push(pathToString(c.path));
  }
  const lines: string[] = [];
  for (const id of [...byManager.keys()].sort()) {
    lines.push(`conflicts with ${printManager(id)}:`);
    for (const path of byManager.get(id) ?? []) lines.push(`- ${path}`);
  }
  return { message: `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`, causes };
}
