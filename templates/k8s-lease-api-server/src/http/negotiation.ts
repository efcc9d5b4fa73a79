// Content negotiation as kube-apiserver does it (k8s.io/apiserver/pkg/endpoints/handlers/negotiation):
// Accept parsed and ordered as github.com/munnerz/goautoneg does, each clause tried against the
// resource's serializers (JSON, YAML, protobuf) with the media-type parameters as acceptMediaTypeOptions
// reads them, and transformations (as=Table, as=PartialObjectMetadata[List]) allowed as
// RequestScope.AllowsMediaTypeTransform allows them. Hand-written: these rules are Kubernetes'.
import type { StatusError } from '../status.js';
import { notAcceptable } from '../status.js';
import { protobufCodec } from './protobuf-hook.js';

export interface MediaRange {
  /** "type/subtype" as sent (goautoneg compares case-sensitively). */
  type: string;
  q: number;
  params: Map<string, string>;
}

interface Clause {
  type: string;
  subType: string;
  q: number;
  params: Map<string, string>;
}

// strconv.ParseFloat's decimal syntax (the hex and underscore forms are left out); anything else is 0.
const GO_FLOAT = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[iI][nN][fF](?:[iI][nN][iI][tT][yY])?|[nN][aA][nN])$/;

function parseQ(text: string): number {
  if (!GO_FLOAT.test(text)) return 0;
  const lower = text.toLowerCase();
  if (lower.endsWith('nan')) return Number.NaN;
  if (lower.includes('inf')) return text.startsWith('-') ? -Infinity : Infinity;
  return Number(text);
}

/** goautoneg's accept_slice.Less: higher q first, then concrete types before wildcards (not a strict order). */
function less(a: Clause, b: Clause): boolean {
  if (a.q > b.q) return true;
  if (a.type !== '*' && b.type === '*') return true;
  return a.subType !== '*' && b.subType === '*';
}

/**
 * Go's sort.Sort runs insertion sort on up to 12 elements, which with goautoneg's Less decides ties
 * by position; longer headers (pdqsort there) get a stable sort on the same order.
 */
function sortClauses(clauses: Clause[]): Clause[] {
  if (clauses.length > 12) return [...clauses].sort((a, b) => (less(a, b) ? -1 : less(b, a) ? 1 : 0));
  const out = [...clauses];
  for (let i = 1; i < out.length; i++) {
    for (let j = i; j > 0; j--) {
      const cur = out[j] as Clause;
      const prev = out[j - 1] as Clause;
      if (!less(cur, prev)) break;
      out[j] = prev;
      out[j - 1] = cur;
    }
  }
  return out;
}

/** goautoneg.ParseAccept: clauses without a "/" (other than a bare "*") are dropped; a bad q is 0. */
function parseClauses(header: string): Clause[] {
  const clauses: Clause[] = [];
  for (const rawPart of header.split(',')) {
    const [range = '', ...rawParams] = rawPart.replace(/^ +| +$/g, '').split(';');
    const sp = range.split('/');
    const type = (sp[0] ?? '').replace(/^ +| +$/g, '');
    let subType: string;
    if (sp.length === 1 && type === '*') subType = '*';
    else if (sp.length === 2) subType = (sp[1] ?? '').replace(/^ +| +$/g, '');
    else continue;
    const params = new Map<string, string>();
    let q = 1;
    for (const param of rawParams) {
      const eq = param.indexOf('=');
      if (eq < 0) continue;
      const token = param.slice(0, eq).replace(/^ +| +$/g, '');
      const value = param.slice(eq + 1);
      if (token === 'q') q = parseQ(value);
      else params.set(token, value.replace(/^ +| +$/g, ''));
    }
    clauses.push({ type, subType, q, params });
  }
  return sortClauses(clauses);
}

/** goautoneg's match of one Accept clause against a "type/subtype": that one, its type with any subtype, or any. */
export function rangeMatches(range: MediaRange, mediaType: string): boolean {
  if (range.type === '*/*' || range.type === mediaType) return true;
  return range.type.endsWith('/*') && mediaType.startsWith(range.type.slice(0, -1));
}

/** The Accept header's clauses in the order they are tried. */
export function parseAccept(header: string | undefined): MediaRange[] {
  if (header === undefined || header === '') return [];
  return parseClauses(header).map((c) => ({ type: `${c.type}/${c.subType}`, q: c.q, params: c.params }));
}

export type MediaTypeName = 'json' | 'yaml' | 'protobuf';

interface Serializer {
  name: MediaTypeName;
  mediaType: string;
  /** Whether a watch can be served in it (SerializerInfo.StreamSerializer != nil). */
  streams: boolean;
}

/** The CodecFactory's SupportedMediaTypes for built-in types, in its order. */
const SERIALIZERS: readonly Serializer[] = [
  { name: 'json', mediaType: 'application/json', streams: true },
  { name: 'yaml', mediaType: 'application/yaml', streams: false },
  { name: 'protobuf', mediaType: 'application/vnd.kubernetes.protobuf', streams: true },
];

export const CONTENT_TYPES: Readonly<Record<MediaTypeName, string>> = {
  json: 'application/json',
  yaml: 'application/yaml',
  protobuf: 'application/vnd.kubernetes.protobuf',
};

export type TargetKind = 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';

/** An `as=…;g=meta.k8s.io;v=…` transformation of the response. */
export interface Target {
  kind: TargetKind;
  version: 'v1' | 'v1beta1';
}

export interface Representation {
  mediaType: MediaTypeName;
  /** undefined: the resource itself. */
  target: Target | undefined;
  /** `pretty=1` on the media type (JSON is then indented). */
  pretty: boolean;
}

/** What an endpoint can do beyond plain objects: RequestScope's, or DefaultEndpointRestrictions (no transforms). */
export interface Endpoint {
  allowsTransform: boolean;
  hasTableConvertor: boolean;
  /** Whether `sv=` (the server's meta version) is accepted at all: RequestScope's AllowsServerVersion. */
  allowsServerVersion: boolean;
}

/** A resource's endpoint (Leases and LeaseCandidates have printers, hence Tables). */
export const RESOURCE_ENDPOINT: Endpoint = {
  allowsTransform: true,
  hasTableConvertor: true,
  allowsServerVersion: true,
};

/** negotiation.DefaultEndpointRestrictions (what ErrorNegotiated uses): no transforms, no `sv=`. */
export const DEFAULT_ENDPOINT: Endpoint = {
  allowsTransform: false,
  hasTableConvertor: false,
  allowsServerVersion: false,
};

const META_GROUP = 'meta.k8s.io';
/** RequestScope.MetaGroupVersion's version: the only `sv` AllowsServerVersion accepts. */
const SERVER_META_VERSION = 'v1';

/** acceptMediaTypeOptions: the options of one clause for one serializer, or undefined when they rule it out. */
function acceptOptions(
  params: Map<string, string>,
  serializer: Serializer,
  endpoint: Endpoint,
): Representation | undefined {
  let convert: { kind: string; group: string; version: string } | undefined;
  let pretty = false;
  for (const [key, value] of params) {
    switch (key) {
      case 'as':
      case 'g':
      case 'v': {
        convert ??= { kind: '', group: '', version: '' };
        if (key === 'as') convert.kind = value;
        else if (key === 'g') convert.group = value;
        else convert.version = value;
        break;
      }
      case 'stream':
        if (value !== '' && (!serializer.streams || value !== 'watch')) return undefined;
        break;
      case 'sv':
        if (value !== '' && (!endpoint.allowsServerVersion || value !== SERVER_META_VERSION)) return undefined;
        break;
      case 'pretty':
        pretty = value === '1';
        break;
      default:
        // export, profile and unknown parameters change nothing here.
        break;
    }
  }
  if (convert === undefined) return { mediaType: serializer.name, target: undefined, pretty };
  if (!endpoint.allowsTransform) return undefined;
  const target = allowedTarget(convert, serializer, endpoint);
  return target === undefined ? undefined : { mediaType: serializer.name, target, pretty };
}

/** RequestScope.AllowsMediaTypeTransform for a requested conversion. */
function allowedTarget(
  convert: { kind: string; group: string; version: string },
  serializer: Serializer,
  endpoint: Endpoint,
): Target | undefined {
  if (convert.group !== META_GROUP || (convert.version !== 'v1' && convert.version !== 'v1beta1')) return undefined;
  const version = convert.version;
  switch (convert.kind) {
    case 'Table':
      // Tables have no protobuf encoding.
      return endpoint.hasTableConvertor && (serializer.name === 'json' || serializer.name === 'yaml')
        ? { kind: 'Table', version }
        : undefined;
    case 'PartialObjectMetadata':
    case 'PartialObjectMetadataList':
      return { kind: convert.kind, version };
    default:
      return undefined;
  }
}

/**
 * Protobuf is offered (for responses and watches alike) only while an encoder is plugged in (see
 * protobuf-hook.ts); without one, `protobuf, json` falls through to JSON.
 */
function available(serializer: Serializer): boolean {
  return serializer.name !== 'protobuf' || protobufCodec() !== undefined;
}

/** NegotiateMediaTypeOptions: the first clause (in goautoneg order) a serializer accepts with its options. */
function negotiateOptions(
  header: string | undefined,
  endpoint: Endpoint,
): { representation: Representation; serializer: Serializer } | undefined {
  const first = SERIALIZERS[0] as Serializer;
  if (header === undefined || header === '')
    return { representation: { mediaType: 'json', target: undefined, pretty: false }, serializer: first };
  for (const range of parseAccept(header)) {
    for (const serializer of SERIALIZERS) {
      if (!rangeMatches(range, serializer.mediaType) || !available(serializer)) continue;
      const representation = acceptOptions(range.params, serializer, endpoint);
      if (representation !== undefined) return { representation, serializer };
    }
  }
  return undefined;
}

/** MediaTypesForSerializer: the media types, or the stream media types, a 406 lists. */
export function supportedMediaTypes(stream: boolean): string[] {
  return stream
    ? SERIALIZERS.filter((s) => s.streams).map((s) => `${s.mediaType};stream=watch`)
    : SERIALIZERS.map((s) => s.mediaType);
}

/** negotiation.NewNotAcceptableError with the list MediaTypesForSerializer gives for the resource. */
export function notAcceptableError(stream: boolean): StatusError {
  return notAcceptable(`only the following media types are accepted: ${supportedMediaTypes(stream).join(', ')}`);
}

export type Negotiated = { ok: true; value: Representation } | { ok: false; error: StatusError };

/** NegotiateOutputMediaType: what a get, list or write answers in, or the 406 to send. */
export function negotiateOutput(header: string | undefined, endpoint: Endpoint): Negotiated {
  const found = negotiateOptions(header, endpoint);
  return found === undefined
    ? { ok: false, error: notAcceptableError(false) }
    : { ok: true, value: found.representation };
}

/**
 * NegotiateOutputMediaTypeStream: the same choice, which must have a stream serializer — the first
 * acceptable clause decides, so `application/yaml, application/json` is a 406 for a watch.
 */
export function negotiateStream(header: string | undefined, endpoint: Endpoint): Negotiated {
  const found = negotiateOptions(header, endpoint);
  if (found === undefined || !found.serializer.streams) return { ok: false, error: notAcceptableError(true) };
  return { ok: true, value: found.representation };
}

/**
 * isPrettyPrint: `?pretty=` as strconv.ParseBool reads it, else the User-Agent of a browser, curl or
 * Wget; `pretty=1` on the media type also asks for it.
 */
export function isPrettyPrint(query: URLSearchParams, userAgent: string | undefined): boolean {
  const value = query.get('pretty') ?? '';
  if (value !== '') return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value);
  const agent = userAgent ?? '';
  return agent.startsWith('curl') || agent.startsWith('Wget') || agent.startsWith('Mozilla/5.0');
}

export type DiscoveryFormat = 'legacy' | 'v2' | 'v2beta1';

const JSONISH = new Set(['application/json', '*/*', 'application/*']);

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

/** The media type of a request body, without parameters. */
export function contentType(header: string | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}
