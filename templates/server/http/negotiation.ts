// Content negotiation: plain JSON, meta.k8s.io Tables (kubectl get), aggregated discovery
// (apidiscovery.k8s.io), and the media types the server cannot produce (406).
export interface MediaRange {
  type: string;
  params: Map<string, string>;
}

export function parseAccept(header: string | undefined): MediaRange[] {
  if (header === undefined || header.trim() === '') return [];
  return header.split(',').map((part) => {
    const [type = '', ...rawParams] = part.split(';').map((p) => p.trim());
    const params = new Map<string, string>();
    for (const p of rawParams) {
      const eq = p.indexOf('=');
      if (eq > 0) params.set(p.slice(0, eq).trim().toLowerCase(), p.slice(eq + 1).trim());
    }
    return { type: type.toLowerCase(), params };
  });
}

const JSONISH = new Set(['application/json', '*/*', 'application/*']);

export type Representation = { kind: 'object' } | { kind: 'table'; version: 'v1' | 'v1beta1' };

/** What a read of Leases should return, or undefined when the client accepts nothing we can produce. */
export function chooseRepresentation(ranges: MediaRange[]): Representation | undefined {
  if (ranges.length === 0) return { kind: 'object' };
  for (const range of ranges) {
    if (!JSONISH.has(range.type)) continue;
    const as = range.params.get('as');
    if (as === undefined) return { kind: 'object' };
    if (as === 'Table' && range.params.get('g') === 'meta.k8s.io') {
      return { kind: 'table', version: range.params.get('v') === 'v1beta1' ? 'v1beta1' : 'v1' };
    }
  }
  return undefined;
}

export type DiscoveryFormat = 'legacy' | 'v2' | 'v2beta1';

export function chooseDiscoveryFormat(ranges: MediaRange[]): DiscoveryFormat {
  for (const range of ranges) {
    if (!JSONISH.has(range.type)) continue;
    if (range.params.get('g') === 'apidiscovery.k8s.io' && range.params.get('as') === 'APIGroupDiscoveryList') {
      const version = range.params.get('v');
      if (version === 'v2' || version === 'v2beta1') return version;
      continue;
    }
    if (range.params.get('as') === undefined) return 'legacy';
  }
  return 'legacy';
}

export function acceptsJson(ranges: MediaRange[]): boolean {
  return ranges.length === 0 || ranges.some((r) => JSONISH.has(r.type));
}

export const NOT_ACCEPTABLE_MESSAGE =
  'only the following media types are accepted: application/json, application/json;as=Table;v=v1;g=meta.k8s.io';

/** The media type of a request body, without parameters. */
export function contentType(header: string | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}
