import type { GroupVersion } from '../shared/group-version.js';
import { groupPathPrefix } from '../shared/group-version.js';
import type { PathTemplateIr, ResourceIr } from './types.js';

/**
 * Names a path builder after the shape of its template:
 *   /apis/g/v/                                    → apiResourcesPath
 *   …/leases                                      → leasesPath
 *   …/namespaces/{namespace}/leases               → namespacedLeasesPath
 *   …/namespaces/{namespace}/leases/{name}        → namespacedLeasePath
 *   …/watch/namespaces/{namespace}/leases/{name}  → watchNamespacedLeasePath
 *   …/priorityclasses/{name}                      → priorityclassPath (the kind's word, not the plural less an `s`)
 */
export function pathBuilderName(template: string, gv: GroupVersion, resources: readonly ResourceIr[]): string {
  const rest = template.startsWith(groupPathPrefix(gv))
    ? template.slice(groupPathPrefix(gv).length)
    : template.replace(/^\//, '');
  const segments = rest.split('/').filter(Boolean);
  if (segments.length === 0) return 'apiResourcesPath';
  const words: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment === 'namespaces' && segments[i + 1] === '{namespace}') {
      words.push('namespaced');
      i++;
    } else if (segment.startsWith('{')) {
      // An object name after a collection selects one item of it: the collection word becomes singular.
      words.push(singular(words.pop() ?? '', resources));
    } else words.push(segment);
  }
  const camel = words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join('');
  return `${camel}Path`;
}

/**
 * A resource's singular: its kind in lower case, as apimachinery derives it (pkg/api/meta/restmapper.go,
 * UnsafeGuessKindToResource) and as the registries name it (`priorityclass`), never the plural less an `s`
 * (`priorityclasse`). A word the spec names no kind for loses a final `s`, the best guess left.
 */
function singular(plural: string, resources: readonly ResourceIr[]): string {
  const kind = resources.find((r) => r.plural === plural)?.kind;
  if (kind !== undefined) return kind.toLowerCase();
  return plural.endsWith('s') ? plural.slice(0, -1) : plural;
}

export function buildPathTemplates(
  templates: ReadonlyArray<{ path: string; deprecated: boolean }>,
  gv: GroupVersion,
  resources: readonly ResourceIr[],
): PathTemplateIr[] {
  const unique = new Map<string, boolean>();
  for (const t of templates) unique.set(t.path, (unique.get(t.path) ?? true) && t.deprecated);
  return [...unique.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([template, deprecated]) => ({
      template,
      builderName: pathBuilderName(template, gv, resources),
      parameters: [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
      deprecated,
    }));
}
