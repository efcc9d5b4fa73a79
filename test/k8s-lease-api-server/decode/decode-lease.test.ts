import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { NS_BASE, api, lease, start } from '../helpers.js';

const PREFIX = 'Lease in version "v1" cannot be handled as a Lease: ';
const LAYOUT = '2006-01-02T15:04:05.000000Z07:00';

describe('decoding and field validation', () => {
  let server: LeaseApiServer;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(() => server.close());

  it('fails Strict requests with unknown fields as 400 BadRequest', async () => {
    const res = await api(server, 'POST', `${NS_BASE}?fieldValidation=Strict`, {
      body: lease('s', { foo: 1, holderIdentity: 'h' }, { bar: true }),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ reason: 'BadRequest', code: 400 });
    expect(res.body.message).toBe(
      `${PREFIX}strict decoding error: unknown field "metadata.bar", unknown field "spec.foo"`,
    );
  });

  it('fails Strict requests with duplicate fields', async () => {
    const body =
      '{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"d"},"spec":{"holderIdentity":"a","holderIdentity":"b"}}';
    const res = await api(server, 'POST', `${NS_BASE}?fieldValidation=Strict`, { body });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`${PREFIX}strict decoding error: duplicate field "spec.holderIdentity"`);
  });

  it('warns (default) about unknown and duplicate fields and drops unknown ones', async () => {
    const body = '{"metadata":{"name":"w"},"spec":{"foo":1,"holderIdentity":"a","holderIdentity":"b"}}';
    const res = await api(server, 'POST', NS_BASE, { body });
    expect(res.status).toBe(201);
    expect(res.headers.get('warning')).toBe(
      '299 - "unknown field \\"spec.foo\\"", 299 - "duplicate field \\"spec.holderIdentity\\""',
    );
    expect(res.body.spec).toEqual({ holderIdentity: 'b' });
  });

  it('stays silent with fieldValidation=Ignore', async () => {
    const res = await api(server, 'POST', `${NS_BASE}?fieldValidation=Ignore`, { body: lease('i', { foo: 1 }) });
    expect(res.status).toBe(201);
    expect(res.headers.get('warning')).toBeNull();
    expect(res.body.spec).toEqual({});
  });

  it('rejects MicroTimes without exactly six fractional digits like the Go decoder', async () => {
    const cases: [string, string][] = [
      ['2024-01-01T00:00:00Z', 'cannot parse "Z" as ".000000"'],
      ['2024-01-01T00:00:00.123Z', 'cannot parse ".123Z" as ".000000"'],
      ['2024-01-01T00:00:00.123456789Z', 'cannot parse "789Z" as "Z07:00"'],
    ];
    for (const [value, detail] of cases) {
      const res = await api(server, 'POST', NS_BASE, { body: lease('mt', { renewTime: value }) });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(`${PREFIX}parsing time "${value}" as "${LAYOUT}": ${detail}`);
    }
    const range = await api(server, 'POST', NS_BASE, {
      body: lease('mt', { acquireTime: '2024-13-01T00:00:00.000000Z' }),
    });
    expect(range.body.message).toBe(`${PREFIX}parsing time "2024-13-01T00:00:00.000000Z": month out of range`);
  });

  it('stores MicroTimes in UTC with six digits', async () => {
    const res = await api(server, 'POST', NS_BASE, {
      body: lease('utc', { acquireTime: '2024-01-01T02:00:00.123456+02:00', renewTime: '2024-01-01T00:00:01.000001Z' }),
    });
    expect(res.status).toBe(201);
    expect(res.body.spec).toEqual({
      acquireTime: '2024-01-01T00:00:00.123456Z',
      renewTime: '2024-01-01T00:00:01.000001Z',
    });
  });

  it('rejects values of the wrong type', async () => {
    const res = await api(server, 'POST', NS_BASE, { body: lease('t', { leaseDurationSeconds: 'ten' }) });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      `${PREFIX}json: cannot unmarshal string into Go struct field LeaseSpec.spec.leaseDurationSeconds of type int32`,
    );
    const fraction = await api(server, 'POST', NS_BASE, { body: lease('t', { leaseTransitions: 1.5 }) });
    expect(fraction.body.message).toBe(
      `${PREFIX}json: cannot unmarshal number 1.5 into Go struct field LeaseSpec.spec.leaseTransitions of type int32`,
    );
  });

  it('rejects malformed JSON and foreign kinds with 400', async () => {
    const broken = await api(server, 'POST', NS_BASE, { body: '{"metadata": {"name": "x"},}' });
    expect(broken.status).toBe(400);
    expect(broken.body.message).toBe(
      "couldn't get version/kind; json parse error: invalid character '}' looking for beginning of object key string",
    );
    const truncated = await api(server, 'POST', NS_BASE, { body: '{"metadata":' });
    expect(truncated.body.message).toBe("couldn't get version/kind; json parse error: unexpected end of JSON input");
    const pod = await api(server, 'POST', NS_BASE, {
      body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } },
    });
    expect(pod.status).toBe(400);
    // A registered kind of another group converts to nothing (conversion.Converter "unknown conversion").
    expect(pod.body.message).toBe(
      'Pod in version "v1" cannot be handled as a Lease: converting (v1.Pod) to (coordination.Lease): unknown conversion',
    );
  });

  it('rejects an unknown fieldValidation directive', async () => {
    const res = await api(server, 'POST', `${NS_BASE}?fieldValidation=Loud`, { body: lease('fv') });
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('fieldValidation: Unsupported value: "Loud"');
  });
});
