import type { GroupVersion } from '../shared/group-version.js';
import { groupPathPrefix } from '../shared/group-version.js';
import type { PathTemplateIr } from './types.js';

/**
 * Names a path builder after the shape of its template:
 *   /apis/g/v/                                    → apiResourcesPath
 *   …/leases                                      → leasesPath
 *   …/namespaces/{namespace}/leases               → namespacedLeasesPath
 *   …/namespaces/{namespace}/leases/{name}        → namespacedLeasePath
 *   …/watch/namespaces/{namespace}/leases/{name}  → watchNamespacedLeasePath
 */
export function pathBuilderName(template: string, gv: GroupVersion): string {
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
      const previous = words.pop() ?? '';
      words.push(previous.endsWith('s') ? previous.slice(0, -1) : previous);
    } else words.push(segment);
  }
  const camel = words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join('');
  return `${camel}Path`;
}

export function buildPathTemplates(
  templates: ReadonlyArray<{ path: string; deprecated: boolean }>,
  gv: GroupVersion,
): PathTemplateIr[] {
  const unique = new Map<string, boolean>();
  for (const t of templates) unique.set(t.path, (unique.get(t.path) ?? true) && t.deprecated);
  return [...unique.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([template, deprecated]) => ({
      template,
      builderName: pathBuilderName(template, gv),
      parameters: [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
      deprecated,
    }));
}
