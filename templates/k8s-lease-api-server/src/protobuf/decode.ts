// Protobuf → the JSON form: a message read with gogo's rules (wire-reader.ts) against the schema table, giving
// the object Go's encoding/json would print for the struct gogo filled — pointers only when set, value
// fields always unless omitempty drops their zero, Time as RFC 3339 seconds, MicroTime with six digits, int64
// beyond 2^53 kept exact as text beside the value. Recursion follows the schema (at most six levels), never
// the input: unknown fields, however nested, are skipped by a loop.
import type { JsonObject, JsonValue } from '../json.js';
import { setOwn } from '../json.js';
import { parseJsonStrict } from '../decode/json-parser.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { timeFromUnix } from '../time.js';
import type { FieldSpec, MessageName } from './schema.js';
import { FIELDS_BY_NUMBER, FIELDS_V1, MESSAGES, UNKNOWN, goMessageName } from './schema.js';
import type { Tag } from './wire-reader.js';
import {
  WireError,
  forEachField,
  int32Of,
  int64Of,
  readLength,
  readVarint,
  skipField,
  UNEXPECTED_EOF,
  readTag,
  wrongWireType,
} from './wire-reader.js';

/** A decoded object and the exact text of its int64 values beyond 2^53, by JSON path (see ParsedJson.numbers). */
export interface DecodedMessage {
  value: JsonObject;
  numbers: Map<string, string>;
}

/** k8s.io/apimachinery/pkg/runtime/serializer/protobuf protoEncodingPrefix: "k8s" and encoding 0 (runtime.Unknown). */
export const MAGIC: Buffer = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

const utf8 = new TextDecoder();
const text = (buf: Uint8Array, start: number, end: number): string => utf8.decode(buf.subarray(start, end));

const joinPath = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

const isVarintType = (field: FieldSpec): boolean =>
  field.type === 'int32' || field.type === 'int64' || field.type === 'bool';

class MessageDecoder {
  readonly numbers: Map<string, string> = new Map();

  constructor(private readonly buf: Uint8Array) {}

  /** Fills `into` with the fields of `name` in [start, end); a repeated message field merges, as gogo's does. */
  decodeInto(into: JsonObject, name: MessageName, start: number, end: number, path: string): JsonObject {
    const byNumber = FIELDS_BY_NUMBER.get(name) ?? new Map<number, FieldSpec>();
    forEachField(
      this.buf,
      start,
      end,
      goMessageName(name),
      (field) => byNumber.has(field),
      (tag, pos) => {
        const field = byNumber.get(tag.field);
        if (field === undefined) return pos;
        return this.field(into, field, tag, pos, end, path);
      },
    );
    return this.finish(into, name, path);
  }

  private field(into: JsonObject, field: FieldSpec, tag: Tag, pos: number, end: number, path: string): number {
    const expected = isVarintType(field) ? 0 : 2;
    if (tag.wireType !== expected) throw wrongWireType(tag.wireType, field.go);
    const childPath = joinPath(path, field.json);
    if (isVarintType(field)) {
      const v = readVarint(this.buf, pos, end);
      let value: number | boolean;
      if (field.type === 'bool') value = v.lo !== 0 || v.hi !== 0;
      else if (field.type === 'int32') value = int32Of(v);
      else {
        const wide = int64Of(v);
        if (typeof wide === 'string') this.numbers.set(childPath, wide);
        value = Number(wide);
      }
      into[field.json] = value;
      return v.next;
    }
    if (field.type === 'map') return this.mapEntry(into, field, pos, end);
    const { start, end: stop } = readLength(this.buf, pos, end);
    const value = this.lengthDelimited(into, field, start, stop, childPath);
    if (field.repeated) {
      const list = into[field.json];
      if (Array.isArray(list)) list.push(value ?? null);
      else into[field.json] = [value ?? null];
    } else if (value === undefined) delete into[field.json];
    else into[field.json] = value;
    return stop;
  }

  private lengthDelimited(
    into: JsonObject,
    field: FieldSpec,
    start: number,
    end: number,
    path: string,
  ): JsonValue | undefined {
    switch (field.type) {
      case 'string':
        return text(this.buf, start, end);
      case 'time':
      case 'microTime':
        return this.time(start, end, field.type === 'microTime');
      case 'fieldsV1':
        return this.fieldsV1(start, end);
      case 'int32':
      case 'int64':
      case 'bool':
      case 'map':
        return undefined;
      default: {
        const existing = into[field.json];
        const target: JsonObject =
          !field.repeated && typeof existing === 'object' && existing !== null && !Array.isArray(existing)
            ? existing
            : {};
        return this.decodeInto(target, field.type.message, start, end, path);
      }
    }
  }

  /** Time/MicroTime.Unmarshal: empty is the zero time (JSON null, so absent); else a Timestamp. */
  private time(start: number, end: number, micro: boolean): string | undefined {
    if (start === end) return undefined;
    const stamp = this.decodeInto({}, 'Timestamp', start, end, '');
    const seconds = typeof stamp['seconds'] === 'number' ? stamp['seconds'] : 0;
    const nanos = typeof stamp['nanos'] === 'number' ? stamp['nanos'] : 0;
    // Time keeps whole seconds; MicroTime truncates nanos toward zero to microseconds (Duration.Truncate).
    const kept = micro ? nanos - (nanos % 1000) : 0;
    const formatted = timeFromUnix(seconds, kept, micro);
    if (formatted === undefined) throw new WireError('Time.MarshalJSON: year outside of range [0,9999]');
    return formatted ?? undefined;
  }

  /** FieldsV1 {Raw = 1}: the raw bytes are JSON text; the last Raw wins. */
  private fieldsV1(start: number, end: number): JsonValue | undefined {
    let raw: [number, number] | undefined;
    forEachField(
      this.buf,
      start,
      end,
      'FieldsV1',
      (field) => field === FIELDS_V1.raw,
      (tag, pos) => {
        if (tag.wireType !== 2) throw wrongWireType(tag.wireType, 'Raw');
        const span = readLength(this.buf, pos, end);
        raw = [span.start, span.end];
        return span.end;
      },
    );
    if (raw === undefined) return undefined;
    const parsed = parseJsonStrict(text(this.buf, raw[0], raw[1]));
    if (!parsed.ok) throw new WireError(`FieldsV1 is not JSON: ${parsed.error}`);
    return parsed.value.value;
  }

  /**
   * One map<string,string> entry as gogo reads it: key (1) and value (2) are read as lengths whatever their wire
   * type, bounded by the enclosing message rather than the entry; other fields are skipped.
   */
  private mapEntry(into: JsonObject, field: FieldSpec, pos: number, limit: number): number {
    const entry = readLength(this.buf, pos, limit);
    let key = '';
    let value = '';
    let i = entry.start;
    while (i < entry.end) {
      const pre = i;
      const tag = readTag(this.buf, i, limit);
      if (tag.field === 1 || tag.field === 2) {
        const span = readLength(this.buf, tag.tag.next, limit);
        if (tag.field === 1) key = text(this.buf, span.start, span.end);
        else value = text(this.buf, span.start, span.end);
        i = span.end;
      } else {
        const skipped = skipField(this.buf, pre, limit);
        if (pre + skipped > entry.end) throw new WireError(UNEXPECTED_EOF);
        i = pre + skipped;
      }
    }
    const existing = into[field.json];
    const map: JsonObject =
      typeof existing === 'object' && existing !== null && !Array.isArray(existing) ? existing : {};
    setOwn(map, key, value);
    into[field.json] = map;
    return entry.end;
  }

  /** What encoding/json prints for fields the wire left unset or zero. */
  private finish(into: JsonObject, name: MessageName, path: string): JsonObject {
    for (const field of MESSAGES[name]) {
      const value = into[field.json];
      if (field.pointer) continue;
      if (value === undefined) {
        const zero = this.zero(field, joinPath(path, field.json));
        if (zero !== undefined && !(field.omitEmpty && typeof field.type === 'string')) into[field.json] = zero;
      } else if (field.omitEmpty && (value === '' || value === 0 || value === false)) {
        delete into[field.json];
      }
    }
    return into;
  }

  private zero(field: FieldSpec, path: string): JsonValue | undefined {
    if (field.repeated) return undefined;
    switch (field.type) {
      case 'string':
        return '';
      case 'int32':
      case 'int64':
        return 0;
      case 'bool':
        return false;
      case 'map':
      case 'time':
      case 'microTime':
      case 'fieldsV1':
        return undefined;
      default:
        return this.decodeInto({}, field.type.message, 0, 0, path);
    }
  }
}

/** One message (no envelope) as its JSON form; the failure is gogo's error text. */
export function decodeMessage(buf: Uint8Array, name: MessageName): Result<DecodedMessage, string> {
  const decoder = new MessageDecoder(buf);
  try {
    const value = decoder.decodeInto({}, name, 0, buf.length, '');
    return ok({ value, numbers: decoder.numbers });
  } catch (e) {
    if (e instanceof WireError) return err(e.message);
    throw e;
  }
}

/** A runtime.Unknown envelope as the protobuf serializer reads it. */
export interface Envelope {
  apiVersion: string;
  kind: string;
  /** The object's bytes; undefined when the envelope had none (an empty object). */
  raw: Uint8Array | undefined;
}

/**
 * serializer/protobuf Serializer.Decode up to the envelope: the errors for a body that is empty, lacks the
 * magic, is the magic alone, or whose runtime.Unknown does not unmarshal — Go's texts, as the handlers
 * quote them.
 */
export function decodeEnvelope(body: Uint8Array): Result<Envelope, string> {
  if (body.length === 0) return err('empty data');
  if (body.length < MAGIC.length || !MAGIC.equals(body.subarray(0, MAGIC.length)))
    return err(`provided data does not appear to be a protobuf message, expected prefix [${[...MAGIC].join(' ')}]`);
  if (body.length === MAGIC.length) return err('empty body');
  const envelope: Envelope = { apiVersion: '', kind: '', raw: undefined };
  const typeMeta: JsonObject = {};
  const decoder = new MessageDecoder(body);
  try {
    forEachField(
      body,
      MAGIC.length,
      body.length,
      'Unknown',
      (field) => field >= UNKNOWN.typeMeta && field <= UNKNOWN.contentType,
      (tag, pos) => {
        if (tag.wireType !== 2) throw wrongWireType(tag.wireType, UNKNOWN_GO_NAMES[tag.field] ?? '');
        const span = readLength(body, pos, body.length);
        if (tag.field === UNKNOWN.typeMeta) decoder.decodeInto(typeMeta, 'TypeMeta', span.start, span.end, '');
        if (tag.field === UNKNOWN.raw) envelope.raw = body.subarray(span.start, span.end);
        return span.end;
      },
    );
  } catch (e) {
    if (e instanceof WireError) return err(e.message);
    throw e;
  }
  envelope.apiVersion = typeof typeMeta['apiVersion'] === 'string' ? typeMeta['apiVersion'] : '';
  envelope.kind = typeof typeMeta['kind'] === 'string' ? typeMeta['kind'] : '';
  return ok(envelope);
}

const UNKNOWN_GO_NAMES: Readonly<Record<number, string>> = {
  [UNKNOWN.typeMeta]: 'TypeMeta',
  [UNKNOWN.raw]: 'Raw',
  [UNKNOWN.contentEncoding]: 'ContentEncoding',
  [UNKNOWN.contentType]: 'ContentType',
};
