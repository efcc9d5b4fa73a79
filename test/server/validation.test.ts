import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../templates/server/index.js';
import { startLeaseApiServer } from '../../templates/server/index.js';
import { NS_BASE, api, lease, openApi130, start } from './helpers.js';

const SUBDOMAIN_MESSAGE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('semantic validation (422 Invalid)', () => {
  let server: LeaseApiServer;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(() => server.close());

  it('rejects a name that is not a DNS-1123 subdomain', async () => {
    const res = await api(server, 'POST', NS_BASE, { body: lease('Bad_Name') });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `Lease.coordination.k8s.io "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": ${SUBDOMAIN_MESSAGE}`,
      reason: 'Invalid',
      details: {
        name: 'Bad_Name',
        group: 'coordination.k8s.io',
        kind: 'Lease',
        causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: "Bad_Name": ${SUBDOMAIN_MESSAGE}`, field: 'metadata.name' }],
      },
      code: 422,
    });
  });

  it('requires a name or generateName', async () => {
    const res = await api(server, 'POST', NS_BASE, { body: { spec: {} } });
    expect(res.status).toBe(422);
    expect(res.body.details?.causes).toEqual([{ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' }]);
  });

  it('rejects non-positive leaseDurationSeconds and negative leaseTransitions, aggregating causes', async () => {
    const res = await api(server, 'POST', NS_BASE, { body: lease('spec', { leaseDurationSeconds: 0, leaseTransitions: -1 }) });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'Lease.coordination.k8s.io "spec" is invalid: [spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0, spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0]',
    );
    expect(res.body.details?.causes?.map((c) => c.field)).toEqual(['spec.leaseDurationSeconds', 'spec.leaseTransitions']);
  });

  it('forbids preferredHolder without strategy (1.31+ schema)', async () => {
    const res = await api(server, 'POST', NS_BASE, { body: lease('ph', { preferredHolder: 'b' }) });
    expect(res.status).toBe(422);
    expect(res.body.details?.causes).toEqual([{ reason: 'FieldValueForbidden', message: 'Forbidden: may only be specified if `strategy` is defined', field: 'spec.preferredHolder' }]);
    const ok = await api(server, 'POST', NS_BASE, { body: lease('ph', { preferredHolder: 'b', strategy: 'OldestEmulationVersion' }) });
    expect(ok.status).toBe(201);
  });

  it('only supports known strategies', async () => {
    const res = await api(server, 'POST', NS_BASE, { body: lease('st', { strategy: 'Random' }) });
    expect(res.body.details?.causes?.[0]).toEqual({
      reason: 'FieldValueNotSupported',
      message: 'Unsupported value: "Random": supported values: "OldestEmulationVersion"',
      field: 'spec.strategy',
    });
  });

  it('validates label keys and values', async () => {
    const res = await api(server, 'POST', NS_BASE, { body: lease('lbl', {}, { labels: { 'bad key': 'v', ok: 'bad value!' } }) });
    expect(res.status).toBe(422);
    expect(res.body.details?.causes?.map((c) => c.field)).toEqual(['metadata.labels', 'metadata.labels']);
  });

  it('validates updates too', async () => {
    await api(server, 'POST', NS_BASE, { body: lease('upd') });
    const res = await api(server, 'PUT', `${NS_BASE}/upd`, { body: lease('upd', { leaseDurationSeconds: -5 }) });
    expect(res.status).toBe(422);
  });

  it('treats 1.31 fields as unknown for an older release', async () => {
    const old = await startLeaseApiServer({ openapi: openApi130(), release: '1.30.0' });
    try {
      const strict = await api(old, 'POST', `${NS_BASE}?fieldValidation=Strict`, { body: lease('old', { preferredHolder: 'b' }) });
      expect(strict.status).toBe(400);
      expect(strict.body.message).toBe('Lease in version "v1" cannot be handled as a Lease: strict decoding error: unknown field "spec.preferredHolder"');
      const warn = await api(old, 'POST', NS_BASE, { body: lease('old', { preferredHolder: 'b', holderIdentity: 'a' }) });
      expect(warn.status).toBe(201);
      expect(warn.body.spec).toEqual({ holderIdentity: 'a' });
    } finally {
      await old.close();
    }
  });
});
