import { describeType } from './type-description.js';
import type { GroupVersionIr, ReleaseIr, TypeRef } from './types.js';
import { markdownCell } from '../shared/markdown.js';

function typeName(type: TypeRef | undefined): string {
  return type === undefined ? '-' : describeType(type);
}

/**
 * The operation, query-parameter and response-code tables of a release as
 * the Kubernetes reference pages lay them out, in Markdown: the golden files
 * maintainers review when a release is bumped. One top-level section per group version.
 */
export function renderOperationTables(ir: ReleaseIr): string {
  return ir.groupVersions.map(renderGroupVersionOperationTables).join('\n');
}

/** The models of a release, one line per field, for golden files; one top-level section per group version. */
export function renderModelTables(ir: ReleaseIr): string {
  return ir.groupVersions.map(renderGroupVersionModelTables).join('\n');
}

function renderGroupVersionOperationTables(ir: GroupVersionIr): string {
  const lines: string[] = [`# ${ir.group}/${ir.version} operations in Kubernetes ${ir.release}`, ''];
  for (const op of ir.operations) {
    lines.push(`## ${op.name} (${op.kind})`, '');
    lines.push(`- operationId: \`${op.operationId}\``);
    lines.push(`- action: \`${op.action ?? '-'}\``);
    lines.push(`- request: \`${op.method} ${op.path}\``);
    lines.push(`- deprecated: ${op.deprecated ? 'yes' : 'no'}`);
    lines.push(`- description: ${markdownCell(op.description)}`);
    lines.push(
      `- path parameters: ${op.pathParameters.map((p) => `\`${p.name}\` (${typeName(p.type)})`).join(', ') || '-'}`,
    );
    if (op.requestBody !== undefined) {
      lines.push(
        `- request body: ${typeName(op.requestBody.type)}${op.requestBody.required ? ', required' : ''}; ${op.requestBody.contentTypes.map((c) => `\`${c}\``).join(', ')}`,
      );
    } else lines.push('- request body: -');
    lines.push('');
    if (op.queryParameters.length > 0) {
      lines.push('| query parameter | type | required | description |', '|---|---|---|---|');
      for (const p of op.queryParameters)
        lines.push(
          `| ${p.name} | ${markdownCell(typeName(p.type))} | ${p.required ? 'yes' : 'no'} | ${markdownCell(p.description)} |`,
        );
      lines.push('');
    }
    lines.push('| code | body | content types | description |', '|---|---|---|---|');
    for (const r of op.responses)
      lines.push(
        `| ${r.code} | ${typeName(r.type)} | ${r.contentTypes.join(', ') || '-'} | ${markdownCell(r.description)} |`,
      );
    lines.push('');
  }
  return lines.join('\n');
}

function renderGroupVersionModelTables(ir: GroupVersionIr): string {
  const lines: string[] = [`# ${ir.group}/${ir.version} models in Kubernetes ${ir.release}`, ''];
  for (const model of ir.models) {
    lines.push(`## ${model.name} (${model.schemaName})`, '', markdownCell(model.description) || '-', '');
    if (model.shape.kind === 'object') {
      lines.push('| field | type | required | description |', '|---|---|---|---|');
      for (const p of model.shape.properties)
        lines.push(
          `| ${p.name} | ${markdownCell(typeName(p.type))} | ${p.required ? 'yes' : 'no'} | ${markdownCell(p.description)} |`,
        );
    } else if (model.shape.kind === 'timestamp') lines.push(`timestamp string, ${model.shape.precision} precision`);
    else lines.push(`alias of ${typeName(model.shape.type)}`);
    lines.push('');
  }
  return lines.join('\n');
}
