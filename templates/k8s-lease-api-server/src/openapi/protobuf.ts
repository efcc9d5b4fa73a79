// Encoding a gnostic OpenAPI v2 document: the field numbers and nesting are gnostic's (openapi_v2.proto);
// the wire format is protobufjs's Writer.
import { Writer } from 'protobufjs/minimal.js';

/** A string, bool, int64 (`{ int }`), double (`{ double }`) or nested message field. */
export type ProtoField = {
  field: number;
  value: string | boolean | { int: number } | { double: number } | ProtoField[];
};

const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;

function write(writer: Writer, fields: readonly ProtoField[]): Writer {
  for (const { field, value } of fields) {
    if (typeof value === 'boolean') writer.uint32((field << 3) | VARINT).bool(value);
    else if (typeof value === 'string') writer.uint32((field << 3) | LENGTH_DELIMITED).string(value);
    else if (Array.isArray(value)) write(writer.uint32((field << 3) | LENGTH_DELIMITED).fork(), value).ldelim();
    else if ('int' in value) writer.uint32((field << 3) | VARINT).int64(value.int);
    else writer.uint32((field << 3) | FIXED64).double(value.double);
  }
  return writer;
}

export function encodeMessage(fields: ProtoField[]): Buffer {
  return Buffer.from(write(Writer.create(), fields).finish());
}
