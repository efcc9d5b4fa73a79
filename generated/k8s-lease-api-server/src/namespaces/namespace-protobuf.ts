// Copied by lease-api-generator from templates/server/namespaces/namespace-protobuf.ts. DO NOT EDIT: edit that file and run `npm run generate`.
// kubectl ≥ 1.33 sends built-in types such as Namespace as Kubernetes protobuf
// (application/vnd.kubernetes.protobuf): the "k8s\0" magic, then a runtime.Unknown envelope
// {typeMeta{apiVersion, kind}, raw, contentEncoding, contentType} whose raw bytes are the object.
// protobufjs's Reader reads the wire format; which fields of those messages matter (generated.proto's
// field numbers) is Kubernetes' and written here. Input is bounded by the request body limit and read
// to a fixed nesting, with no recursion on input. It returns the JSON form kube-apiserver would have
// decoded: kind, apiVersion and metadata's name, generateName, labels and annotations (what a Namespace
// create may set; spec and status are server-owned here).
import { Reader } from 'protobufjs/minimal.js';
import type { JsonObject } from '../json.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';

export const PROTOBUF_CONTENT_TYPE = 'application/vnd.kubernetes.protobuf';
const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

type Field = { field: number; wire: 2; value: Buffer } | { field: number; wire: 0 | 1 | 5; value: undefined };

/** The top-level fields of one message (length-delimited values kept, others skipped), or why it is malformed. */
function fields(buf: Buffer): Result<Field[], string> {
  const out: Field[] = [];
  const reader = Reader.create(buf);
  try {
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      const field = tag >>> 3;
      const wire = tag & 7;
      if (wire === 2) out.push({ field, wire, value: Buffer.from(reader.bytes()) });
      else if (wire === 0 || wire === 1 || wire === 5) {
        reader.skipType(wire);
        out.push({ field, wire, value: undefined });
      } else return err(`unsupported wire type ${wire}`);
    }
  } catch (cause) {
    // protobufjs throws RangeError("index out of range: …") on a truncated message.
    return err(`truncated message: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  return ok(out);
}

function bytesOf(list: Field[], field: number): Buffer | undefined {
  // The last occurrence wins, as for any protobuf scalar or message field.
  let found: Buffer | undefined;
  for (const f of list) if (f.field === field && f.wire === 2) found = f.value;
  return found;
}

const text = (buf: Buffer | undefined): string | undefined => (buf === undefined ? undefined : buf.toString('utf8'));

function stringMap(list: Field[], field: number): Result<Record<string, string> | undefined, string> {
  const entries: [string, string][] = [];
  for (const f of list) {
    if (f.field !== field || f.wire !== 2) continue;
    const entry = fields(f.value);
    if (!entry.ok) return entry;
    entries.push([text(bytesOf(entry.value, 1)) ?? '', text(bytesOf(entry.value, 2)) ?? '']);
  }
  // fromEntries defines own properties, so a "__proto__" key stays a plain key.
  return ok(entries.length === 0 ? undefined : Object.fromEntries(entries));
}

/** The Namespace in a protobuf request body, as the JSON object kube-apiserver would have decoded. */
export function decodeNamespaceProtobuf(body: Buffer): Result<JsonObject, string> {
  if (!body.subarray(0, MAGIC.length).equals(MAGIC))
    return err('provided object is not a Kubernetes protobuf message (no k8s magic prefix)');
  const envelope = fields(body.subarray(MAGIC.length));
  if (!envelope.ok) return envelope;
  const typeMeta = fields(bytesOf(envelope.value, 1) ?? Buffer.alloc(0));
  if (!typeMeta.ok) return typeMeta;
  const namespace = fields(bytesOf(envelope.value, 2) ?? Buffer.alloc(0));
  if (!namespace.ok) return namespace;
  const meta = fields(bytesOf(namespace.value, 1) ?? Buffer.alloc(0));
  if (!meta.ok) return meta;
  const labels = stringMap(meta.value, 11);
  if (!labels.ok) return labels;
  const annotations = stringMap(meta.value, 12);
  if (!annotations.ok) return annotations;
  const metadata: JsonObject = {};
  const name = text(bytesOf(meta.value, 1));
  const generateName = text(bytesOf(meta.value, 2));
  if (name !== undefined) metadata['name'] = name;
  if (generateName !== undefined) metadata['generateName'] = generateName;
  if (labels.value !== undefined) metadata['labels'] = labels.value;
  if (annotations.value !== undefined) metadata['annotations'] = annotations.value;
  const object: JsonObject = { metadata };
  const apiVersion = text(bytesOf(typeMeta.value, 1));
  const kind = text(bytesOf(typeMeta.value, 2));
  if (apiVersion !== undefined && apiVersion !== '') object['apiVersion'] = apiVersion;
  if (kind !== undefined && kind !== '') object['kind'] = kind;
  return ok(object);
}
