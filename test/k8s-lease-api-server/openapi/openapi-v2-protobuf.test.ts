// /openapi/v2 as gnostic protobuf (OpenAPIv2.proto), read back with protobufjs's Reader.
import { Reader } from 'protobufjs/minimal.js';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';
import { openApiV2Document } from '../../../templates/k8s-lease-api-server/src/openapi/openapi-v2.js';
import { openApiV2Protobuf } from '../../../templates/k8s-lease-api-server/src/openapi/openapi-v2-protobuf.js';
import { packaged } from '../helpers/openapi-documents.js';

/** One level of a protobuf message: field number → the length-delimited payloads or varints under it. */
function fields(bytes: Uint8Array): Map<number, (Uint8Array | number)[]> {
  const reader = Reader.create(bytes);
  const out = new Map<number, (Uint8Array | number)[]>();
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    const field = tag >>> 3;
    const wire = tag & 7;
    let value: Uint8Array | number = 0;
    if (wire === 2) value = reader.bytes();
    else if (wire === 0) value = reader.uint32();
    else reader.skipType(wire);
    out.set(field, [...(out.get(field) ?? []), value]);
  }
  return out;
}
const str = (value: Uint8Array | number | undefined): string =>
  value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : '';
const sub = (value: Uint8Array | number | undefined): Map<number, (Uint8Array | number)[]> =>
  fields(value instanceof Uint8Array ? value : new Uint8Array());

describe('/openapi/v2 as gnostic protobuf (OpenAPIv2.proto)', () => {
  const doc = packaged('1.35.0');
  const v2 = openApiV2Document('1.35.0', [{ version: 'v1', document: doc }]);
  const document = fields(openApiV2Protobuf(v2));

  it('carries swagger, info and every definition by name (Document 1, 2, 9)', () => {
    expect(str(document.get(1)?.[0])).toBe('2.0');
    expect(str(sub(document.get(2)?.[0]).get(2)?.[0])).toBe('v1.35.0');
    const named = sub(document.get(9)?.[0]).get(1) ?? [];
    expect(named.map((n) => str(sub(n).get(1)?.[0]))).toEqual(Object.keys(v2['definitions'] as JsonObject));
  });

  it("writes Lease's properties, $ref and group-version-kind extension as kubectl's proto parser reads them", () => {
    const named = sub(document.get(9)?.[0]).get(1) ?? [];
    const lease = named.map(sub).find((n) => str(n.get(1)?.[0]) === 'io.k8s.api.coordination.v1.Lease');
    const schema = sub(lease?.get(2)?.[0]);
    expect(str(schema.get(4)?.[0])).toBe('Lease defines a lease concept.');
    expect(str(sub(schema.get(22)?.[0]).get(1)?.[0])).toBe('object');
    const properties = (sub(schema.get(25)?.[0]).get(1) ?? []).map(sub);
    const spec = properties.find((p) => str(p.get(1)?.[0]) === 'spec');
    expect(str(sub(spec?.get(2)?.[0]).get(1)?.[0])).toBe('#/definitions/io.k8s.api.coordination.v1.LeaseSpec');
    const extension = sub(schema.get(31)?.[0]);
    expect(str(extension.get(1)?.[0])).toBe('x-kubernetes-group-version-kind');
    expect(JSON.parse(str(sub(extension.get(2)?.[0]).get(2)?.[0]))).toEqual([
      { group: 'coordination.k8s.io', kind: 'Lease', version: 'v1' },
    ]);
  });

  it("lists PATCH's fieldValidation query parameter (kubectl ≤ 1.27's server-side validation probe)", () => {
    const paths = (sub(document.get(8)?.[0]).get(2) ?? []).map(sub);
    const item = paths.find(
      (p) => str(p.get(1)?.[0]) === '/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}',
    );
    const patch = sub(sub(item?.get(2)?.[0]).get(8)?.[0]);
    const names = (patch.get(8) ?? []).map((p) => {
      const nonBody = sub(sub(sub(p).get(1)?.[0]).get(2)?.[0]);
      return str(sub(nonBody.get(3)?.[0]).get(4)?.[0]);
    });
    expect(names).toContain('fieldValidation');
  });
});
