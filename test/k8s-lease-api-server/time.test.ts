// MicroTime (spec.acquireTime/renewTime) and Time as kube-apiserver stores them: parsed with Go's
// time.Parse (RFC3339Micro / RFC3339), re-rendered in UTC by MarshalJSON, across years 0000-9999.
// The expected values were produced by Go's time package (Parse, protobuf-style truncation, UTC Format),
// except the ValueElem of "cannot parse" errors, which follows current Go (the value where the element began).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import {
  formatMicroTime,
  formatTime,
  parseMicroTime,
  parseTime,
} from '../../templates/k8s-lease-api-server/src/time.js';
import { NS_BASE, api, create, lease, start } from './helpers.js';

const PREFIX = 'Lease in version "v1" cannot be handled as a Lease: ';
const MICRO = '2006-01-02T15:04:05.000000Z07:00';

describe('MicroTime fidelity', () => {
  let server: LeaseApiServer;
  let sentinel: string;
  let counter = 0;
  beforeAll(async () => {
    server = await start();
    sentinel = JSON.stringify(
      await create(server, 'sentinel', { holderIdentity: 'keep', renewTime: '2024-05-01T12:00:00.123456Z' }),
    );
  });
  afterAll(() => server.close());

  async function expectSentinelIntact(): Promise<void> {
    const res = await api(server, 'GET', `${NS_BASE}/sentinel`);
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).toBe(sentinel);
  }

  it.each([
    { sent: '2024-05-01T12:00:00.123456Z', stored: '2024-05-01T12:00:00.123456Z' },
    { sent: '0000-01-01T00:00:00.000000Z', stored: '0000-01-01T00:00:00.000000Z' },
    { sent: '0000-02-29T12:00:00.000001Z', stored: '0000-02-29T12:00:00.000001Z' },
    { sent: '0099-12-31T23:59:59.999999Z', stored: '0099-12-31T23:59:59.999999Z' },
    { sent: '1969-12-31T23:59:59.999999Z', stored: '1969-12-31T23:59:59.999999Z' },
    { sent: '9999-12-31T23:59:59.999999Z', stored: '9999-12-31T23:59:59.999999Z' },
    { sent: '2024-05-01T12:00:00.123456+05:30', stored: '2024-05-01T06:30:00.123456Z' },
    { sent: '2024-01-01T00:00:00.000001-23:59', stored: '2024-01-01T23:59:00.000001Z' },
    // Go accepts offsets up to 24:60 ("some people do write offsets of 24 hours").
    { sent: '2024-01-02T00:00:00.000000+24:00', stored: '2024-01-01T00:00:00.000000Z' },
    { sent: '2024-01-01T00:00:00,654321Z', stored: '2024-01-01T00:00:00.654321Z' },
    { sent: '2024-01-01T7:08:09.000000Z', stored: '2024-01-01T07:08:09.000000Z' },
    // An offset can carry the UTC instant out of 0000-9999; Go's Format then writes the year as is.
    { sent: '9999-12-31T23:59:59.999999-01:00', stored: '10000-01-01T00:59:59.999999Z' },
    { sent: '0000-01-01T00:00:00.000000+01:00', stored: '-0001-12-31T23:00:00.000000Z' },
    // Go's atoi reads the six fraction characters, so a sign is taken (and "-00000" is zero).
    { sent: '2024-01-01T00:00:00.+12345Z', stored: '2024-01-01T00:00:00.012345Z' },
    { sent: '2024-01-01T00:00:00.-00000Z', stored: '2024-01-01T00:00:00.000000Z' },
  ])('stores $sent as $stored', async ({ sent, stored }) => {
    const name = `ok-${counter++}`;
    const created = await api(server, 'POST', NS_BASE, { body: lease(name, { renewTime: sent, acquireTime: sent }) });
    expect(created.status).toBe(201);
    expect(created.body.spec).toEqual({ acquireTime: stored, renewTime: stored });
    const read = await api(server, 'GET', `${NS_BASE}/${name}`);
    expect(read.body.spec).toEqual({ acquireTime: stored, renewTime: stored });
    // What the server returns within 0000-9999 is accepted back unchanged (read-modify-write is stable).
    if (/^\d{4}-/.test(stored)) {
      const replaced = await api(server, 'PUT', `${NS_BASE}/${name}`, { body: read.body });
      expect(replaced.status).toBe(200);
      expect(replaced.body.metadata?.resourceVersion).toBe(read.body.metadata?.resourceVersion);
    }
    await expectSentinelIntact();
  });

  it('stores the zero time (January 1, year 1 UTC) as no time, as Go marshals it to null', async () => {
    for (const sent of ['0001-01-01T00:00:00.000000Z', '0001-01-01T01:00:00.000000+01:00']) {
      const name = `zero-${counter++}`;
      const created = await api(server, 'POST', NS_BASE, {
        body: lease(name, { holderIdentity: 'h', renewTime: sent }),
      });
      expect(created.status).toBe(201);
      expect(created.body.spec?.['renewTime'] ?? null).toBeNull();
      expect(created.body.spec?.['holderIdentity']).toBe('h');
    }
    await expectSentinelIntact();
  });

  it.each([
    {
      sent: '2024-01-01T00:00:00Z',
      error: `parsing time "2024-01-01T00:00:00Z" as "${MICRO}": cannot parse "Z" as ".000000"`,
    },
    {
      sent: '2024-01-01T00:00:00.12345Z',
      error: `parsing time "2024-01-01T00:00:00.12345Z" as "${MICRO}": cannot parse ".12345Z" as ".000000"`,
    },
    {
      sent: '2024-01-01T00:00:00.1234567Z',
      error: `parsing time "2024-01-01T00:00:00.1234567Z" as "${MICRO}": cannot parse "7Z" as "Z07:00"`,
    },
    {
      sent: '2024-01-01T00:00:00.000000z',
      error: `parsing time "2024-01-01T00:00:00.000000z" as "${MICRO}": cannot parse "z" as "Z07:00"`,
    },
    {
      sent: '2024-01-01T00:00:00.000000+0530',
      error: `parsing time "2024-01-01T00:00:00.000000+0530" as "${MICRO}": cannot parse "+0530" as "Z07:00"`,
    },
    {
      sent: '10000-01-01T00:00:00.000000Z',
      error: `parsing time "10000-01-01T00:00:00.000000Z" as "${MICRO}": cannot parse "0-01-01T00:00:00.000000Z" as "-"`,
    },
    {
      sent: '-0001-01-01T00:00:00.000000Z',
      error: `parsing time "-0001-01-01T00:00:00.000000Z" as "${MICRO}": cannot parse "-0001-01-01T00:00:00.000000Z" as "2006"`,
    },
    {
      sent: '+2024-01-01T00:00:00.000000Z',
      error: `parsing time "+2024-01-01T00:00:00.000000Z" as "${MICRO}": cannot parse "+2024-01-01T00:00:00.000000Z" as "2006"`,
    },
    {
      sent: '2024-1-01T00:00:00.000000Z',
      error: `parsing time "2024-1-01T00:00:00.000000Z" as "${MICRO}": cannot parse "1-01T00:00:00.000000Z" as "01"`,
    },
    { sent: '2023-02-29T00:00:00.000000Z', error: 'parsing time "2023-02-29T00:00:00.000000Z": day out of range' },
    { sent: '1900-02-29T00:00:00.000000Z', error: 'parsing time "1900-02-29T00:00:00.000000Z": day out of range' },
    { sent: '2024-04-31T00:00:00.000000Z', error: 'parsing time "2024-04-31T00:00:00.000000Z": day out of range' },
    { sent: '2024-01-00T00:00:00.000000Z', error: 'parsing time "2024-01-00T00:00:00.000000Z": day out of range' },
    { sent: '2024-00-10T00:00:00.000000Z', error: 'parsing time "2024-00-10T00:00:00.000000Z": month out of range' },
    { sent: '2024-01-01T24:00:00.000000Z', error: 'parsing time "2024-01-01T24:00:00.000000Z": hour out of range' },
    { sent: '2024-01-01T00:60:00.000000Z', error: 'parsing time "2024-01-01T00:60:00.000000Z": minute out of range' },
    { sent: '2016-12-31T23:59:60.000000Z', error: 'parsing time "2016-12-31T23:59:60.000000Z": second out of range' },
    {
      sent: '2024-01-01T00:00:00.000000+25:00',
      error: 'parsing time "2024-01-01T00:00:00.000000+25:00": time zone offset hour out of range',
    },
    {
      sent: '2024-01-01T00:00:00.000000+01:61',
      error: 'parsing time "2024-01-01T00:00:00.000000+01:61": time zone offset minute out of range',
    },
    { sent: '2024-01-01T00:00:00.000000Z ', error: 'parsing time "2024-01-01T00:00:00.000000Z ": extra text: " "' },
    {
      sent: '２０２４-01-01T00:00:00.000000Z',
      error: `parsing time "\\xef\\xbc\\x92\\xef\\xbc\\x90\\xef\\xbc\\x92\\xef\\xbc\\x94-01-01T00:00:00.000000Z" as "${MICRO}": cannot parse "\\xef\\xbc\\x92\\xef\\xbc\\x90\\xef\\xbc\\x92\\xef\\xbc\\x94-01-01T00:00:00.000000Z" as "2006"`,
    },
    {
      sent: '2024-01-01T00:00:00.000000Z"x',
      error: 'parsing time "2024-01-01T00:00:00.000000Z\\"x": extra text: "\\"x"',
    },
    {
      sent: '2024-01-01T00:00:00.-00001Z',
      error: 'parsing time "2024-01-01T00:00:00.-00001Z": fractional second out of range',
    },
    {
      sent: '2024-01-01T00:00:00.000000x25:00',
      error: 'parsing time "2024-01-01T00:00:00.000000x25:00": time zone offset hour out of range',
    },
    {
      sent: '2024-01-01T00:00:00.000000+1a:00',
      error: `parsing time "2024-01-01T00:00:00.000000+1a:00" as "${MICRO}": cannot parse "+1a:00" as "Z07:00"`,
    },
    { sent: '2024-01-00T25:00:00.000000Z', error: 'parsing time "2024-01-00T25:00:00.000000Z": hour out of range' },
  ])("answers $sent with Go's parse error (400)", async ({ sent, error }) => {
    const res = await api(server, 'POST', NS_BASE, { body: lease(`bad-${counter++}`, { renewTime: sent }) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'BadRequest',
      code: 400,
      message: `${PREFIX}${error}`,
    });
    await expectSentinelIntact();
  });

  it('normalises metav1.Time the same way at second precision (creationTimestamp is server-set)', async () => {
    const created = await api(server, 'POST', NS_BASE, {
      body: lease(`time-${counter++}`, { holderIdentity: 'h' }, { creationTimestamp: '0000-01-01T00:00:00.999+01:00' }),
    });
    expect(created.status).toBe(201);
    expect(created.body.metadata?.creationTimestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const bad = await api(server, 'POST', NS_BASE, {
      body: lease(`time-${counter++}`, { holderIdentity: 'h' }, { creationTimestamp: '2024-01-01T00:00:00.000000' }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(
      `${PREFIX}parsing time "2024-01-01T00:00:00.000000" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"`,
    );
    await expectSentinelIntact();
  });

  it.each([
    { sent: '0000-01-01T00:00:00.999+01:00', result: { ok: true, value: '-0001-12-31T23:00:00Z' } },
    { sent: '2024-01-01T00:00:00.5+01:00', result: { ok: true, value: '2023-12-31T23:00:00Z' } },
    { sent: '2024-01-01T00:00:00.1234567890123Z', result: { ok: true, value: '2024-01-01T00:00:00Z' } },
    // Time.ProtoTime keeps whole seconds, so half a second into year 1 is stored as the zero time.
    { sent: '0001-01-01T00:00:00.5Z', result: { ok: true, value: null } },
    {
      sent: '2024-01-01T00:00:00.000000',
      result: {
        ok: false,
        error: 'parsing time "2024-01-01T00:00:00.000000" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"',
      },
    },
    {
      sent: '2024-02-30T00:00:00Z',
      result: { ok: false, error: 'parsing time "2024-02-30T00:00:00Z": day out of range' },
    },
  ])('parses metav1.Time $sent as Go does', ({ sent, result }) => {
    expect(parseTime(sent)).toEqual(result);
  });
});

describe('time', () => {
  it('formats Time at second precision and MicroTime with six digits', () => {
    const ms = Date.parse('2024-02-29T23:59:59.987Z');
    expect(formatTime(ms)).toBe('2024-02-29T23:59:59Z');
    expect(formatMicroTime(ms)).toBe('2024-02-29T23:59:59.987000Z');
  });

  it('parses like Go time.Parse', () => {
    expect(parseMicroTime('2024-01-01T00:00:00.000001-01:30')).toEqual({
      ok: true,
      value: '2024-01-01T01:30:00.000001Z',
    });
    expect(parseMicroTime('2024-02-30T00:00:00.000000Z')).toEqual({
      ok: false,
      error: 'parsing time "2024-02-30T00:00:00.000000Z": day out of range',
    });
    expect(parseMicroTime('2024-01-01 00:00:00.000000Z')).toEqual({
      ok: false,
      error:
        'parsing time "2024-01-01 00:00:00.000000Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse " 00:00:00.000000Z" as "T"',
    });
    expect(parseMicroTime('2024-01-01T00:00:00.000000Zjunk')).toEqual({
      ok: false,
      error: 'parsing time "2024-01-01T00:00:00.000000Zjunk": extra text: "junk"',
    });
    expect(parseTime('2024-01-01T00:00:00.5+01:00')).toEqual({ ok: true, value: '2023-12-31T23:00:00Z' });
  });
});
