import { StructureKind, VariableDeclarationKind, type StatementStructures } from 'ts-morph';
import type { GroupVersionIr, PathTemplateIr } from '../ir/types.js';
import { deprecationNote, jsDocs } from './js-doc.js';
import { clientOperations } from '../ir/client-surface.js';
import { RELEASE_FOLDER, relocateRuntime, type ModulePlace } from './module-place.js';
import { createImportTracker, type ImportTracker } from './import-tracker.js';

const PATH_SEGMENTS = '../runtime/path-segments.js';

/** Which runtime validator guards which path parameter; anything else is held to the stricter name rules. */
function segmentValidator(parameter: string): 'namespaceSegment' | 'nameSegment' {
  return parameter === 'namespace' ? 'namespaceSegment' : 'nameSegment';
}

/** Escapes literal text for a template literal: path text comes from the spec and is data. */
export function templateLiteralText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${');
}

/**
 * Builders for the paths the exported functions call. The deprecated `/watch/` paths are left out: watches use
 * the list paths with `watch=true`, and a builder for a path no function sends to only invites its use.
 */
export function pathStatements(
  ir: GroupVersionIr,
  place: ModulePlace = RELEASE_FOLDER,
): Array<string | StatementStructures> {
  const used = new Set(clientOperations(ir).map((o) => o.path));
  const paths = ir.paths.filter((p) => used.has(p.template));
  const imports = createImportTracker((module) => relocateRuntime(module, place));
  const statements: Array<string | StatementStructures> = [];
  for (const path of paths) {
    // A path is deprecated when all its operations are; the note is what the spec says about them.
    const note = path.deprecated
      ? deprecationNote(ir.operations.find((o) => o.path === path.template)?.description ?? '')
      : undefined;
    statements.push(path.parameters.length === 0 ? constantPath(path, note) : pathFunction(path, note, imports));
  }
  return [...imports.declarations(), ...statements];
}

function constantPath(path: PathTemplateIr, deprecation: string | undefined): StatementStructures {
  return {
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: jsDocs(
      `The path \`${path.template}\`.`,
      deprecation !== undefined ? [{ tagName: 'deprecated', text: deprecation }] : [],
    ),
    declarations: [{ name: path.builderName, initializer: singleQuoted(path.template) }],
  };
}

function pathFunction(
  path: PathTemplateIr,
  deprecation: string | undefined,
  imports: ImportTracker,
): StatementStructures {
  let body = '';
  let rest = path.template;
  for (const parameter of path.parameters) {
    const marker = `{${parameter}}`;
    const at = rest.indexOf(marker);
    body +=
      templateLiteralText(rest.slice(0, at)) +
      '${' +
      `${imports.value(PATH_SEGMENTS, segmentValidator(parameter))}(${parameter})` +
      '}';
    rest = rest.slice(at + marker.length);
  }
  body += templateLiteralText(rest);
  return {
    kind: StructureKind.Function,
    isExported: true,
    name: path.builderName,
    docs: jsDocs(
      `Builds \`${path.template}\`. Every parameter is validated before any request exists (namespace: DNS-1123 label; name: DNS-1123 subdomain), so an accepted value holds only a-z, 0-9, '-' and '.', which need no percent-encoding: nothing else can reach the URL.`,
      [
        {
          tagName: 'throws',
          text: `InvalidPathParameterError when ${path.parameters.map((p) => `\`${p}\``).join(' or ')} is not acceptable`,
        },
        ...(deprecation !== undefined ? [{ tagName: 'deprecated', text: deprecation }] : []),
      ],
    ),
    // Parameter names are identifiers: validateNames checked them.
    parameters: path.parameters.map((p) => ({ name: p, type: 'string' })),
    returnType: 'string',
    statements: [`return \`${body}\`;`],
  };
}

/** A single-quoted string literal, escaped for any content. */
export function singleQuoted(text: string): string {
  return `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

/** `namespacedLeasePath(params.namespace, params.name)`, or the constant for a path without parameters. */
export function pathBuilderCall(operation: {
  readonly pathBuilder: string;
  readonly pathParameters: ReadonlyArray<{ readonly name: string }>;
}): string {
  return operation.pathParameters.length === 0
    ? operation.pathBuilder
    : `${operation.pathBuilder}(${operation.pathParameters.map((p) => `params.${p.name}`).join(', ')})`;
}
