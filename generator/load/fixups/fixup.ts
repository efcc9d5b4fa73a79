import { isJsonObject, setOwn, type JsonObject } from '../../shared/json.js';

/**
 * A fixup as k8s-openapi has them (k8s-openapi-codegen/src/fixups/): one named function per defect, listed
 * for the releases that need it, which reports an error when it finds nothing to fix — so when upstream
 * repairs a bug, the next spec:update says so instead of carrying a dead fix.
 */
export interface Fixup {
  readonly name: string;
  /**
   * `upstream-bug`: the document says something the API server does not do. `normal-form`: the document is
   * right, but this project keeps one canonical form of it (the same for both upstream forms, this group only).
   */
  readonly kind: 'upstream-bug' | 'normal-form';
  /** The releases and upstream forms whose documents have what this fixes; it runs on those only. */
  readonly appliesTo: (context: FixupContext) => boolean;
  /** The fixed document and how many places were fixed. */
  readonly apply: (document: JsonObject, context: FixupContext) => FixupOutcome;
}

export interface FixupContext {
  readonly release: string;
  /** The upstream form the document came from (fixups run on its OpenAPI 3 conversion). */
  readonly format: 'swagger2' | 'openapi3';
  /** The API group being extracted, every version of it. */
  readonly group: string;
}

export interface FixupOutcome {
  readonly document: JsonObject;
  readonly fixed: number;
}

/** The minor version of a release, for ranges: `1.33.1` → 33. */
export function minorOf(release: string): number {
  return Number(release.split('.')[1]);
}

/** Keys whose value is a map from user-chosen names (a property called "default" is not the keyword). */
const NAME_MAPS = new Set(['properties', 'paths', 'content', 'responses', 'schemas', 'parameters']);

/**
 * Rebuilds every JSON object bottom-up through `visit`, leaving prose (`description`, `example`) alone, and
 * counts the objects `visit` replaced: it returns its argument itself when it has nothing to fix.
 */
export function mapDeep(document: JsonObject, visit: (object: JsonObject) => JsonObject): FixupOutcome {
  let fixed = 0;
  const walk = (node: unknown, isNameMap: boolean): unknown => {
    if (Array.isArray(node)) return node.map((child) => walk(child, false));
    if (!isJsonObject(node)) return node;
    const mapped: JsonObject = {};
    for (const [key, child] of Object.entries(node)) {
      setOwn(
        mapped,
        key,
        !isNameMap && (key === 'description' || key === 'example')
          ? child
          : walk(child, !isNameMap && NAME_MAPS.has(key) && !Array.isArray(child)),
      );
    }
    if (isNameMap) return mapped;
    const visited = visit(mapped);
    if (visited !== mapped) fixed++;
    return visited;
  };
  return { document: walk(document, false) as JsonObject, fixed };
}
