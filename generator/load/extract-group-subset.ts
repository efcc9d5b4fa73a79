import { GeneratorError } from '../errors.js';
import { versionOfPath } from '../shared/group-version.js';
import type { UpstreamDocument } from './read-document.js';
import { getOwn, isJsonObject, setOwn, type JsonObject } from '../shared/json.js';
import { joinPointer, refTokens, resolveLocalRef } from '../shared/json-pointer.js';

/**
 * Copies out of an upstream document the paths of every version of one API group and every
 * definition, parameter or schema they reach through `$ref`, at the same JSON
 * pointers, so the subset is a self-contained document of the same format.
 * Dangling references and `$ref` chains that loop without ever reaching a
 * schema are reported with the pointer of the offending `$ref`.
 */
export function extractGroupSubset(upstream: UpstreamDocument, group: string): JsonObject {
  const { document, file } = upstream;
  const paths = document['paths'];
  if (!isJsonObject(paths)) {
    throw new GeneratorError('not-openapi', 'document has no "paths" object', { file, pointer: '/paths' });
  }
  // The group's versioned paths only: its discovery path `/apis/<group>/` belongs to no version.
  const groupPaths = Object.keys(paths)
    .filter((p) => versionOfPath(p, group) !== undefined)
    .sort();
  if (groupPaths.length === 0) {
    throw new GeneratorError('no-group-paths', `no ${group} paths (none start with /apis/${group}/<version>/)`, {
      file,
      pointer: '/paths',
    });
  }

  const reached = new Set<string>();
  const pending: Array<{ node: unknown; pointer: string }> = groupPaths.map((p) => ({
    node: paths[p],
    pointer: joinPointer('/paths', p),
  }));
  while (pending.length > 0) {
    const { node, pointer } = pending.pop()!;
    for (const { ref, at } of collectRefs(node, pointer)) {
      for (const target of followRefChain(document, ref, at, file)) {
        if (reached.has(target)) continue;
        reached.add(target);
        pending.push({ node: resolveLocalRef(document, target), pointer: target.slice(1) });
      }
    }
  }

  const subset: JsonObject = {};
  for (const key of ['swagger', 'openapi', 'info']) if (document[key] !== undefined) subset[key] = document[key];
  const subsetPaths: JsonObject = {};
  for (const p of groupPaths) setOwn(subsetPaths, p, getOwn(paths, p));
  subset['paths'] = subsetPaths;
  for (const ref of [...reached].sort()) setAtPointer(subset, refTokens(ref)!, resolveLocalRef(document, ref));
  return subset;
}

/** Keys whose value maps user-chosen names to schemas: there, `example` or `x-foo` is a property name, not a keyword. */
const NAME_MAPS = new Set([
  'properties',
  'patternProperties',
  'definitions',
  'schemas',
  'parameters',
  'responses',
  'requestBodies',
  'paths',
  'content',
]);

function* collectRefs(node: unknown, pointer: string, isNameMap = false): Generator<{ ref: string; at: string }> {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) yield* collectRefs(node[i], `${pointer}/${i}`);
    return;
  }
  if (!isJsonObject(node)) return;
  for (const [key, child] of Object.entries(node)) {
    const at = joinPointer(pointer, key);
    if (isNameMap) yield* collectRefs(child, at);
    else if (key === '$ref' && typeof child === 'string') yield { ref: child, at };
    // Examples and extension values are data, not schema: a "$ref" inside them is not a reference.
    else if (key !== 'example' && key !== 'examples' && !key.startsWith('x-'))
      yield* collectRefs(child, at, NAME_MAPS.has(key) && isJsonObject(child));
  }
}

/** Every ref along a chain of `$ref`-only nodes; throws on a dangling ref or a loop that never reaches a schema. */
function followRefChain(document: JsonObject, ref: string, at: string, file: string): string[] {
  const chain: string[] = [];
  let current = ref;
  for (;;) {
    if (!current.startsWith('#/')) {
      throw new GeneratorError(
        'dangling-ref',
        `external $ref ${JSON.stringify(current)} is not supported (documents must be self-contained)`,
        { file, pointer: at },
      );
    }
    if (chain.includes(current)) {
      throw new GeneratorError(
        'ref-cycle',
        `$ref cycle that never reaches a schema: ${[...chain, current].join(' -> ')}`,
        { file, pointer: at },
      );
    }
    chain.push(current);
    const target = resolveLocalRef(document, current);
    if (target === undefined) {
      throw new GeneratorError('dangling-ref', `dangling $ref ${JSON.stringify(current)}: nothing at that pointer`, {
        file,
        pointer: at,
      });
    }
    if (
      isJsonObject(target) &&
      typeof target['$ref'] === 'string' &&
      Object.keys(target).every((k) => k === '$ref' || k === 'description')
    ) {
      at = `${current.slice(1)}/$ref`;
      current = target['$ref'];
      continue;
    }
    return chain;
  }
}

function setAtPointer(root: JsonObject, tokens: string[], value: unknown): void {
  let node = root;
  for (const token of tokens.slice(0, -1)) {
    const next = getOwn(node, token);
    if (isJsonObject(next)) node = next;
    else {
      const created: JsonObject = {};
      setOwn(node, token, created);
      node = created;
    }
  }
  setOwn(node, tokens[tokens.length - 1]!, value);
}
