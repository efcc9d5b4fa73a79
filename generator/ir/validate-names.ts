import { GeneratorError } from '../errors.js';
import { joinPointer } from '../shared/json-pointer.js';
import type { GroupVersionIr } from './types.js';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Words a declaration or parameter may not be named: ECMAScript reserved words, TypeScript's strict-mode ones,
 * and `eval`/`arguments`, which strict mode (every ES module) forbids as binding names (ECMA-262 §13.1.1).
 */
const RESERVED = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with as implements interface let package private protected public static yield await eval arguments'.split(
    ' ',
  ),
);

export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && !RESERVED.has(name);
}

/**
 * Spec text that becomes TypeScript names — operationIds (function names),
 * schema names (types), path parameters (function parameters) and path
 * templates (builder names) — must be identifiers and unique, or generation
 * stops with the place in the document that holds the offending name.
 */
export function validateNames(ir: GroupVersionIr, file: string): void {
  const fail = (detail: string, pointer: string): never => {
    throw new GeneratorError('unsupported-schema', detail, { file, pointer });
  };
  const functions = new Map<string, string>();
  for (const op of ir.operations) {
    const pointer = joinPointer('/paths', op.path, op.method.toLowerCase(), 'operationId');
    if (!isIdentifier(op.name))
      fail(
        `operationId ${JSON.stringify(op.operationId)} does not make a TypeScript function name (${JSON.stringify(op.name)})`,
        pointer,
      );
    const clash = functions.get(op.name);
    if (clash !== undefined)
      fail(`operations ${clash} and ${op.operationId} would both be emitted as ${op.name}`, pointer);
    functions.set(op.name, op.operationId);
    for (const p of op.pathParameters) {
      if (!isIdentifier(p.name))
        fail(
          `path parameter ${JSON.stringify(p.name)} is not usable as a TypeScript parameter name`,
          joinPointer('/paths', op.path),
        );
    }
  }
  const builders = new Map<string, string>();
  for (const path of ir.paths) {
    const pointer = joinPointer('/paths', path.template);
    if (!isIdentifier(path.builderName))
      fail(
        `path ${JSON.stringify(path.template)} does not make a path builder name (${JSON.stringify(path.builderName)})`,
        pointer,
      );
    const clash = builders.get(path.builderName);
    if (clash !== undefined)
      fail(`paths ${clash} and ${path.template} would both be built by ${path.builderName}`, pointer);
    builders.set(path.builderName, path.template);
  }
  for (const model of ir.models) {
    if (!isIdentifier(model.name))
      fail(
        `schema name ${JSON.stringify(model.schemaName)} does not make a TypeScript type name (${JSON.stringify(model.name)})`,
        joinPointer('/components/schemas', model.schemaName),
      );
  }
}
