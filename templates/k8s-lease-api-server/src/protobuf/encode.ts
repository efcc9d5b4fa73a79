// The JSON form → protobuf bytes exactly as kube-apiserver's gogo-generated Marshal writes them: fields in
// ascending number order, Go value fields always (zero included), pointer fields only when set, map entries
// sorted by key bytes, Time as {seconds, nanos: 0}, MicroTime as {seconds, microseconds·1000}, and objects
// wrapped in the "k8s\0" + runtime.Unknown envelope that serializer/protobuf writes (TypeMeta, raw, and the
// two empty strings contentEncoding and contentType). protobufjs's Writer does the wire format.
import { Writer } from 'protobufjs/minimal.js';
import type { JsonObject, JsonValue } from '../json.js';
import { isJsonObject } from '../json.js';
import { unixOfTime } from '../time.js';
import { MAGIC } from './decode.js';
import type { FieldSpec, MessageName } from './schema.js';
import { MESSAGES, RAW_EXTENSION, UNKNOWN, WATCH_EVENT } from './schema.js';
import { compareGoStrings } from '../go-strings.js';

const VARINT = 0;
const LENGTH_DELIMITED = 2;

const tag = (writer: Writer, field: number, wireType: number): Writer => writer.uint32((field << 3) | wireType);

function writeTimestamp(writer: Writer, value: JsonValue | undefined, micro: boolean): void {
  const instant = typeof value === 'string' ? unixOfTime(value, micro) : undefined;
  // A zero Time marshals to nothing (Time.Size is 0); the field itself is still written by the parent.
  if (instant === undefined) return;
  tag(writer, 1, VARINT).int64(instant.seconds);
  tag(writer, 2, VARINT).int32(micro ? instant.nanos - (instant.nanos % 1000) : 0);
}

function writeScalar(writer: Writer, field: FieldSpec, value: JsonValue | undefined): void {
  const n = field.number;
  switch (field.type) {
    case 'string':
      tag(writer, n, LENGTH_DELIMITED).string(typeof value === 'string' ? value : '');
      return;
    case 'int32':
      tag(writer, n, VARINT).int32(typeof value === 'number' ? value : 0);
      return;
    case 'int64':
      tag(writer, n, VARINT).int64(typeof value === 'number' ? value : 0);
      return;
    case 'bool':
      tag(writer, n, VARINT).bool(value === true);
      return;
    case 'time':
    case 'microTime':
      tag(writer, n, LENGTH_DELIMITED).fork();
      writeTimestamp(writer, value, field.type === 'microTime');
      writer.ldelim();
      return;
    case 'fieldsV1':
      tag(writer, n, LENGTH_DELIMITED).fork();
      if (value !== undefined) tag(writer, 1, LENGTH_DELIMITED).bytes(Buffer.from(JSON.stringify(value), 'utf8'));
      writer.ldelim();
      return;
    case 'map': {
      const map = isJsonObject(value) ? value : {};
      for (const key of Object.keys(map).sort(compareGoStrings)) {
        const entry = map[key];
        tag(writer, n, LENGTH_DELIMITED).fork();
        tag(writer, 1, LENGTH_DELIMITED).string(key);
        tag(writer, 2, LENGTH_DELIMITED).string(typeof entry === 'string' ? entry : '');
        writer.ldelim();
      }
      return;
    }
    default:
      tag(writer, n, LENGTH_DELIMITED).fork();
      writeMessage(writer, field.type.message, isJsonObject(value) ? value : {});
      writer.ldelim();
  }
}

function writeMessage(writer: Writer, name: MessageName, obj: JsonObject): Writer {
  for (const field of MESSAGES[name]) {
    const raw = Object.hasOwn(obj, field.json) ? obj[field.json] : undefined;
    const value = raw === null ? undefined : raw;
    if (field.repeated) {
      if (Array.isArray(value)) for (const item of value) writeScalar(writer, field, item ?? undefined);
      continue;
    }
    if (field.pointer && value === undefined) continue;
    writeScalar(writer, field, value);
  }
  return writer;
}

/** One message's bytes, without envelope. */
export function encodeMessage(name: MessageName, obj: JsonObject): Uint8Array {
  return writeMessage(Writer.create(), name, obj).finish();
}

/** Kubernetes' type meta of an encoded object. */
export interface TypeMeta {
  apiVersion: string;
  kind: string;
}

/** "k8s\0" + runtime.Unknown{typeMeta, raw, contentEncoding: "", contentType: ""} (Unknown.NestedMarshalTo). */
export function envelope(typeMeta: TypeMeta, raw: Uint8Array): Buffer {
  const writer = Writer.create();
  tag(writer, UNKNOWN.typeMeta, LENGTH_DELIMITED).fork();
  tag(writer, 1, LENGTH_DELIMITED).string(typeMeta.apiVersion);
  tag(writer, 2, LENGTH_DELIMITED).string(typeMeta.kind);
  writer.ldelim();
  tag(writer, UNKNOWN.raw, LENGTH_DELIMITED).bytes(raw);
  tag(writer, UNKNOWN.contentEncoding, LENGTH_DELIMITED).string('');
  tag(writer, UNKNOWN.contentType, LENGTH_DELIMITED).string('');
  return Buffer.concat([MAGIC, writer.finish()]);
}

/** Stored objects are immutable: each is encoded at most once per message type, however many readers. */
const caches = new Map<MessageName, WeakMap<JsonObject, Uint8Array>>();

export function encodeCached(name: MessageName, obj: JsonObject): Uint8Array {
  let cache = caches.get(name);
  if (cache === undefined) {
    cache = new WeakMap();
    caches.set(name, cache);
  }
  let bytes = cache.get(obj);
  if (bytes === undefined) {
    bytes = encodeMessage(name, obj);
    cache.set(obj, bytes);
  }
  return bytes;
}

/** A list kind (LeaseList, PartialObjectMetadataList, …): ListMeta, then each item's cached bytes. */
export function encodeList(item: MessageName, listMeta: JsonObject, items: readonly JsonObject[]): Uint8Array {
  const writer = Writer.create();
  tag(writer, 1, LENGTH_DELIMITED).fork();
  writeMessage(writer, 'ListMeta', listMeta);
  writer.ldelim();
  for (const obj of items) tag(writer, 2, LENGTH_DELIMITED).bytes(encodeCached(item, obj));
  return writer.finish();
}

/**
 * One frame of a protobuf watch (application/vnd.kubernetes.protobuf;stream=watch): the stream serializer is
 * the raw one, so the meta.v1.WatchEvent has no envelope of its own; its RawExtension holds the enveloped
 * object; LengthDelimitedFramer puts a 4-byte big-endian length before it.
 */
export function watchFrame(type: string, object: Uint8Array): Buffer {
  const writer = Writer.create();
  tag(writer, WATCH_EVENT.type, LENGTH_DELIMITED).string(type);
  tag(writer, WATCH_EVENT.object, LENGTH_DELIMITED).fork();
  tag(writer, RAW_EXTENSION.raw, LENGTH_DELIMITED).bytes(object);
  writer.ldelim();
  const event = writer.finish();
  const frame = Buffer.allocUnsafe(4 + event.length);
  frame.writeUInt32BE(event.length, 0);
  frame.set(event, 4);
  return frame;
}
