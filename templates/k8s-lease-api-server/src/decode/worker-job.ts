// What the parse worker is asked to do and what it answers: a JSON or YAML text parsed, or a protobuf body
// decoded. The same function runs a job in the worker and on the event loop, so both read a body alike.
import type { ResourceInfo } from '../lease-meta.js';
import type { ProtobufBody } from '../protobuf/request-body.js';
import { decodeDeleteOptionsBody, decodeNamespaceProtobuf, decodeResourceBody } from '../protobuf/request-body.js';
import type { Result } from '../result.js';
import type { StatusError } from '../status.js';
import type { BodyFormat, WireResult } from './parse-text.js';
import { parseTextSync, toWire } from './parse-text.js';
import type { StrictShape } from './strict-shape.js';

/** Which object a protobuf body must hold: the served resource's, a core/v1 Namespace, or DeleteOptions. */
export type ProtobufTarget =
  | { kind: 'resource'; resource: ResourceInfo }
  | { kind: 'namespace' }
  | { kind: 'deleteOptions' };

export type WorkerJob =
  | { kind: 'text'; text: string; format: BodyFormat; shape: StrictShape | undefined }
  | { kind: 'protobuf'; bytes: Uint8Array; target: ProtobufTarget };

/** A decoded protobuf body as it crosses from the worker: the value as JSON text, the numbers as pairs. */
export type ProtobufWire = { ok: true; json: string; numbers: [string, string][] } | { ok: false; error: StatusError };

export type WorkerReply = { kind: 'text'; wire: WireResult } | { kind: 'protobuf'; wire: ProtobufWire };

export function decodeProtobufSync(bytes: Uint8Array, target: ProtobufTarget): Result<ProtobufBody, StatusError> {
  switch (target.kind) {
    case 'resource':
      return decodeResourceBody(bytes, target.resource);
    case 'namespace':
      return decodeNamespaceProtobuf(bytes);
    case 'deleteOptions':
      return decodeDeleteOptionsBody(bytes);
  }
}

function protobufWire(result: Result<ProtobufBody, StatusError>): ProtobufWire {
  if (!result.ok) return result;
  return { ok: true, json: JSON.stringify(result.value.value), numbers: [...result.value.numbers] };
}

export function runJob(job: WorkerJob): WorkerReply {
  if (job.kind === 'text') return { kind: 'text', wire: toWire(parseTextSync(job.text, job.format, job.shape)) };
  return { kind: 'protobuf', wire: protobufWire(decodeProtobufSync(job.bytes, job.target)) };
}
