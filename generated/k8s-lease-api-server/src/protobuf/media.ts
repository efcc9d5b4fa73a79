// Copied by lease-api-generator from templates/server/protobuf/media.ts. DO NOT EDIT: edit that file and run `npm run generate`.
// Whether a response goes out in protobuf. Hand-written from kube-apiserver's output negotiation
// (k8s.io/apiserver/pkg/endpoints/handlers/negotiation/negotiate.go NegotiateMediaTypeOptions and
// acceptMediaTypeOptions, over munnerz/goautoneg's ParseAccept): Accept clauses sorted by q (then concrete
// before wildcard), each tried against the served types in their order (JSON, YAML, protobuf) with its
// parameters checked; the first that fits wins. This module only answers "protobuf, and how" — when JSON or
// YAML wins, or nothing does, the JSON negotiation decides (and words any 406).

export const PROTOBUF_CONTENT_TYPE = 'application/vnd.kubernetes.protobuf';
export const PROTOBUF_WATCH_CONTENT_TYPE: string = `${PROTOBUF_CONTENT_TYPE};stream=watch`;

/** as=PartialObjectMetadata(List);g=meta.k8s.io;v=v1|v1beta1 — the one conversion protobuf can carry (Table cannot). */
export interface PartialConversion {
  kind: 'PartialObjectMetadata' | 'PartialObjectMetadataList';
  version: 'v1' | 'v1beta1';
}

export interface ProtobufOutput {
  convert: PartialConversion | undefined;
}

interface Clause {
  type: string;
  subType: string;
  q: number;
  params: Map<string, string>;
}

const GO_FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** goautoneg.ParseAccept: malformed ranges dropped, q parsed apart, then sorted (q, then specificity). */
function parseClauses(header: string): Clause[] {
  const clauses: Clause[] = [];
  for (const part of header.split(',')) {
    const [range = '', ...rawParams] = part.split(';');
    const sp = range.split('/');
    const type = (sp[0] ?? '').trim();
    let subType: string;
    if (sp.length === 1 && type === '*') subType = '*';
    else if (sp.length === 2) subType = (sp[1] ?? '').trim();
    else continue;
    const clause: Clause = { type, subType, q: 1, params: new Map() };
    for (const param of rawParams) {
      const eq = param.indexOf('=');
      if (eq < 0) continue;
      const token = param.slice(0, eq).trim();
      const value = param.slice(eq + 1);
      // strconv.ParseFloat: the whole value must be a number, else q is 0.
      if (token === 'q') clause.q = GO_FLOAT.test(value) ? Number(value) : 0;
      else clause.params.set(token, value.trim());
    }
    clauses.push(clause);
  }
  const rank = (c: Clause): [number, number, number] => [-c.q, c.type === '*' ? 1 : 0, c.subType === '*' ? 1 : 0];
  return clauses
    .map((clause, index) => ({ clause, index }))
    .sort((a, b) => {
      const [ra, rb] = [rank(a.clause), rank(b.clause)];
      return ra[0] - rb[0] || ra[1] - rb[1] || ra[2] - rb[2] || a.index - b.index;
    })
    .map(({ clause }) => clause);
}

type Served = 'json' | 'yaml' | 'vnd.kubernetes.protobuf';
const SERVED: readonly Served[] = ['json', 'yaml', 'vnd.kubernetes.protobuf'];

/** acceptMediaTypeOptions for one served type: undefined when a parameter rules it out. */
function accepts(params: Map<string, string>, served: Served): { convert: PartialConversion | undefined } | undefined {
  const as = params.get('as');
  const group = params.get('g');
  const version = params.get('v');
  const stream = params.get('stream');
  const serverVersion = params.get('sv');
  // YAML has no stream serializer; the only stream schema is "watch"; the only server version is v1.
  if (stream !== undefined && stream !== '' && (served === 'yaml' || stream !== 'watch')) return undefined;
  if (serverVersion !== undefined && serverVersion !== '' && serverVersion !== 'v1') return undefined;
  if (as === undefined && group === undefined && version === undefined) return { convert: undefined };
  // RequestScope.AllowsMediaTypeTransform: only meta.k8s.io v1/v1beta1 targets; Table only as JSON or YAML.
  if (group !== 'meta.k8s.io' || (version !== 'v1' && version !== 'v1beta1')) return undefined;
  if (as === 'Table') return served === 'vnd.kubernetes.protobuf' ? undefined : { convert: undefined };
  if (as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') return { convert: { kind: as, version } };
  return undefined;
}

/** The protobuf answer the Accept header negotiates, or undefined when the answer is not protobuf. */
export function protobufOutput(header: string | undefined): ProtobufOutput | undefined {
  // Wildcards reach JSON first, and no parameter JSON refuses is one protobuf accepts: without the protobuf
  // type named, the answer is never protobuf (the common case, decided without parsing).
  if (header === undefined || !header.includes(PROTOBUF_CONTENT_TYPE)) return undefined;
  for (const clause of parseClauses(header)) {
    for (const served of SERVED) {
      const matches =
        (clause.type === 'application' && (clause.subType === served || clause.subType === '*')) ||
        (clause.type === '*' && clause.subType === '*');
      if (!matches) continue;
      const options = accepts(clause.params, served);
      if (options === undefined) continue;
      return served === 'vnd.kubernetes.protobuf' ? options : undefined;
    }
  }
  return undefined;
}
