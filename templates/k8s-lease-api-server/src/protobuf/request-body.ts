// Protobuf request bodies (Content-Type: application/vnd.kubernetes.protobuf) turned into the JSON form the
// JSON path would have decoded, or into the 400 kube-apiserver answers. The texts follow
// k8s.io/apiserver/pkg/endpoints/handlers: create.go/update.go pass decode errors through rest.go
// transformDecodeError ("the object provided is unrecognized (must be of type Lease): <err> (<hex>)" when the
// envelope is unreadable, "Lease in version \"v1\" cannot be handled as a Lease: <err>" once its kind is
// known); delete.go/deletecollection.go quote the error as it is. The envelope's TypeMeta is defaulted from the
// endpoint as serializer/protobuf's copyKindDefaults does; a foreign kind is left for the JSON path's
// checkTypeMeta to refuse, so both paths word it alike.
import type { JsonObject } from '../json.js';
import type { ResourceInfo } from '../lease-meta.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { StatusError } from '../status.js';
import { badRequest } from '../status.js';
import type { DecodedMessage, Envelope } from './decode.js';
import { decodeEnvelope, decodeMessage } from './decode.js';
import type { MessageName } from './schema.js';
import { messagesOf } from './schema.js';

/** What a protobuf body decodes to: the JSON form (kind/apiVersion from the envelope) and exact int64 texts. */
export interface ProtobufBody {
  value: JsonObject;
  numbers: Map<string, string>;
}

/** rest.go summarizeData(body, 30): JSON-looking bodies as text, anything else as hex, cut at 30 bytes. */
function summarize(body: Uint8Array): string {
  if (body.length === 0) return '<empty>';
  const head = Buffer.from(body.subarray(0, 30));
  const shown = body[0] === 0x7b ? head.toString('utf8') : head.toString('hex');
  return body.length > 30 ? `${shown} ...` : shown;
}

/** schema.ParseGroupVersion: "" and "v1" have no group; more than one slash is unparseable (undefined). */
function versionOf(apiVersion: string): string | undefined {
  const parts = apiVersion.split('/');
  if (parts.length === 1) return parts[0];
  return parts.length === 2 ? parts[1] : undefined;
}

interface Expected {
  kind: string;
  version: string;
  message: MessageName;
}

function withTypeMeta(envelope: Envelope, decoded: DecodedMessage): ProtobufBody {
  const value: JsonObject = {};
  if (envelope.apiVersion !== '') value['apiVersion'] = envelope.apiVersion;
  if (envelope.kind !== '') value['kind'] = envelope.kind;
  return { value: { ...value, ...decoded.value }, numbers: decoded.numbers };
}

/** A created or replaced object's body: the envelope, then the object's message. */
function decodeTyped(body: Uint8Array, expected: Expected): Result<ProtobufBody | Envelope, StatusError> {
  const envelope = decodeEnvelope(body);
  if (!envelope.ok)
    return err(
      badRequest(
        `the object provided is unrecognized (must be of type ${expected.kind}): ${envelope.error} (${summarize(body)})`,
      ),
    );
  const env = envelope.value;
  if (env.kind !== '' && env.kind !== expected.kind) return ok(env);
  const version = (env.apiVersion === '' ? undefined : versionOf(env.apiVersion)) ?? expected.version;
  const decoded = decodeMessage(env.raw ?? new Uint8Array(0), expected.message);
  if (!decoded.ok)
    return err(
      badRequest(`${expected.kind} in version "${version}" cannot be handled as a ${expected.kind}: ${decoded.error}`),
    );
  return ok(withTypeMeta(env, decoded.value));
}

/**
 * A Lease or LeaseCandidate body. A foreign kind comes back as just {apiVersion, kind}, for checkTypeMeta
 * to refuse in the JSON path's words.
 */
export function decodeResourceBody(body: Uint8Array, resource: ResourceInfo): Result<ProtobufBody, StatusError> {
  const message: MessageName = messagesOf(resource.groupVersion, resource.kind)?.item ?? 'Lease';
  const decoded = decodeTyped(body, { kind: resource.kind, version: resource.version, message });
  if (!decoded.ok) return decoded;
  if ('value' in decoded.value) return ok(decoded.value);
  return ok({ value: { apiVersion: decoded.value.apiVersion, kind: decoded.value.kind }, numbers: new Map() });
}

// The scheme names in kube-apiserver's "no kind is registered" errors (runtime.NewScheme's call site).
const LEGACY_SCHEME = 'pkg/api/legacyscheme/scheme.go:30';
const META_INTERNAL_SCHEME = 'k8s.io/apimachinery/pkg/apis/meta/internalversion/scheme/register.go:27';

/** A core/v1 Namespace body (kubectl ≥ 1.33 sends it in protobuf). */
export function decodeNamespaceProtobuf(body: Uint8Array): Result<ProtobufBody, StatusError> {
  const decoded = decodeTyped(body, { kind: 'Namespace', version: 'v1', message: 'Namespace' });
  if (!decoded.ok) return decoded;
  if ('value' in decoded.value) {
    const apiVersion = decoded.value.value['apiVersion'];
    if (apiVersion !== undefined && apiVersion !== 'v1')
      return err(
        badRequest(`the API version in the data (${String(apiVersion)}) does not match the expected API version (v1)`),
      );
    return ok({ ...decoded.value, value: { ...decoded.value.value, apiVersion: 'v1', kind: 'Namespace' } });
  }
  const { apiVersion, kind } = decoded.value;
  const gv = apiVersion === '' ? 'v1' : apiVersion;
  return err(
    badRequest(
      `${kind} in version "${versionOf(gv) ?? ''}" cannot be handled as a Namespace: no kind "${kind}" is registered for version "${gv}" in scheme "${LEGACY_SCHEME}"`,
    ),
  );
}

/**
 * A DeleteOptions body (delete.go DeleteResource, deletecollection.go): errors quoted as they are. DeleteOptions
 * is unversioned in the meta-internal scheme, so any group version decodes (client-go sends the resource's own,
 * coordination.k8s.io/v1); another kind is not registered there.
 */
export function decodeDeleteOptionsBody(body: Uint8Array): Result<ProtobufBody, StatusError> {
  const envelope = decodeEnvelope(body);
  if (!envelope.ok) return err(badRequest(envelope.error));
  const { apiVersion, kind } = envelope.value;
  if (kind !== '' && kind !== 'DeleteOptions') {
    const gv = apiVersion === '' ? 'meta.k8s.io/v1' : apiVersion;
    return err(badRequest(`no kind "${kind}" is registered for version "${gv}" in scheme "${META_INTERNAL_SCHEME}"`));
  }
  const decoded = decodeMessage(envelope.value.raw ?? new Uint8Array(0), 'DeleteOptions');
  if (!decoded.ok) return err(badRequest(decoded.error));
  return ok({ value: decoded.value.value, numbers: decoded.value.numbers });
}
