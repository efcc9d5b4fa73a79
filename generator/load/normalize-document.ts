import type { UpstreamDocument } from './read-document.js';
import { isJsonObject, setOwn, type JsonObject } from '../shared/json.js';
import { resolveLocalRef } from '../shared/json-pointer.js';
import { extractGroupSubset } from './extract-group-subset.js';
import { groupPathPrefix, versionOfPath } from '../shared/group-version.js';
import { rootGroupVersion, type GenerationTarget } from '../shared/target.js';
import { swagger2ToOpenApi3 } from './swagger2-to-open-api3.js';
import { applyFixups } from './fixups/apply-fixups.js';
import { GeneratorError } from '../errors.js';
import { validateWithSwaggerParser } from './validate-with-swagger-parser.js';
import { contentHash, sortKeysDeep } from './canonical-json.js';

export interface NormalizedSpec {
  readonly release: string;
  readonly document: JsonObject;
  /** sha256 of the canonical JSON of `document`. */
  readonly contentHash: string;
}

/**
 * Upstream document (either form) → the project's normal form: one
 * self-contained OpenAPI 3.0 document holding only the group's paths (every version) and what
 * they reach, with the release's fixups applied (load/fixups/) and parameters sorted by name.
 */
export async function normalizeUpstreamDocument(
  upstream: UpstreamDocument,
  release: string,
  target: GenerationTarget,
): Promise<NormalizedSpec> {
  const { group } = target;
  const subset = extractGroupSubset(upstream, group);
  // The root version is what every release entry exports (the Lease API's v1): a document with only other versions
  // (LeaseCandidate's) is refused here, naming the upstream file.
  const paths = isJsonObject(subset['paths']) ? Object.keys(subset['paths']) : [];
  const root = rootGroupVersion(target);
  if (!paths.some((p) => p.startsWith(groupPathPrefix(root)))) {
    const found = [...new Set(paths.map((p) => versionOfPath(p, group)))].join(', ');
    throw new GeneratorError(
      'no-group-paths',
      `no ${root.group}/${root.version} paths (the root version, which every release must serve); found ${found}`,
      { file: upstream.file, pointer: '/paths' },
    );
  }
  await validateWithSwaggerParser(subset, upstream.file);
  const openapi3 = upstream.format === 'swagger2' ? swagger2ToOpenApi3(subset) : inlineComponentIndirections(subset);
  const fixups = applyFixups(openapi3, { release, format: upstream.format, group });
  if (!fixups.ok) {
    throw new GeneratorError(
      'obsolete-fixup',
      `fixup ${fixups.obsolete} found nothing to fix in ${release} (${upstream.format}): upstream may have repaired it; narrow its releases in generator/load/fixups/`,
      { file: upstream.file },
    );
  }
  const fixed = fixups.document;
  const document = sortKeysDeep({
    openapi: '3.0.0',
    info: {
      title: `Kubernetes ${group}`,
      version: release,
      'x-kubernetes-release': release,
    },
    paths: sortParameters(fixed['paths']),
    components: { schemas: isJsonObject(fixed['components']) ? (fixed['components']['schemas'] ?? {}) : {} },
  }) as JsonObject;
  await validateWithSwaggerParser(document, upstream.file);
  return { release, document, contentHash: contentHash(document) };
}

/** OpenAPI 3 documents may reference shared parameters, responses and bodies; the normal form inlines them. */
function inlineComponentIndirections(subset: JsonObject): JsonObject {
  const inline = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(inline);
    if (!isJsonObject(node)) return node;
    const ref = node['$ref'];
    if (typeof ref === 'string' && /^#\/components\/(parameters|responses|requestBodies)\//.test(ref))
      return inline(resolveLocalRef(subset, ref));
    const out: JsonObject = {};
    for (const [key, child] of Object.entries(node)) setOwn(out, key, inline(child));
    return out;
  };
  return { ...subset, paths: inline(subset['paths']) };
}

function sortParameters(paths: unknown): unknown {
  if (!isJsonObject(paths)) return paths;
  const byName = (a: unknown, b: unknown): number => {
    const ka = isJsonObject(a) ? `${String(a['in'])}:${String(a['name'])}` : '';
    const kb = isJsonObject(b) ? `${String(b['in'])}:${String(b['name'])}` : '';
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  };
  const out: JsonObject = {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isJsonObject(item)) continue;
    const sortedItem: JsonObject = {};
    for (const [key, value] of Object.entries(item)) {
      if (key === 'parameters' && Array.isArray(value)) setOwn(sortedItem, key, [...value].sort(byName));
      else if (isJsonObject(value) && Array.isArray(value['parameters']))
        setOwn(sortedItem, key, { ...value, parameters: [...value['parameters']].sort(byName) });
      else setOwn(sortedItem, key, value);
    }
    setOwn(out, path, sortedItem);
  }
  return out;
}
