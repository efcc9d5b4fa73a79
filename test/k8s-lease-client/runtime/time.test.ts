import { describe, expect, it } from 'vitest';
import {
  asMicroTime,
  asTime,
  formatMicroTime,
  formatTime,
  isMicroTime,
  isTime,
  microTimeNow,
  parseMicroTime,
  parseTime,
  timeNow,
} from '../../../templates/k8s-lease-client/src/runtime/time.js';

const MICRO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

describe('microTimeNow / timeNow', () => {
  it('formats an injected clock, keeping the sub-millisecond digits', () => {
    const ms = Date.UTC(2024, 4, 1, 12, 0, 0, 123);
    expect(microTimeNow(() => ms + 0.456)).toBe('2024-05-01T12:00:00.123456Z');
    expect(microTimeNow(() => ms)).toBe('2024-05-01T12:00:00.123000Z');
    expect(microTimeNow(() => ms + 0.999)).toBe('2024-05-01T12:00:00.123999Z');
    expect(microTimeNow(() => ms + 0.001)).toBe('2024-05-01T12:00:00.123001Z');
    // Sub-microsecond digits round to the nearest microsecond.
    expect(microTimeNow(() => ms + 0.9999)).toBe('2024-05-01T12:00:00.124000Z');
    for (let micros = 0; micros < 1000; micros++) {
      expect(microTimeNow(() => ms + micros / 1000)).toBe(`2024-05-01T12:00:00.123${String(micros).padStart(3, '0')}Z`);
    }
    expect(timeNow(() => ms + 0.456)).toBe('2024-05-01T12:00:00Z');
  });

  it('uses the platform clock by default', () => {
    const before = Date.now();
    const now = microTimeNow();
    const after = Date.now();
    expect(now).toMatch(MICRO_RE);
    const parsed = parseMicroTime(now).date.getTime();
    // performance.timeOrigin + now() can drift a little from Date.now().
    expect(parsed).toBeGreaterThanOrEqual(before - 1000);
    expect(parsed).toBeLessThanOrEqual(after + 1000);
    expect(timeNow()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it('produces sub-millisecond digits from the default clock', () => {
    const digits = new Set<string>();
    for (let i = 0; i < 200; i++) digits.add(microTimeNow().slice(23, 26));
    expect(digits.size).toBeGreaterThan(1);
  });
});

describe('formatMicroTime / formatTime', () => {
  const date = new Date(Date.UTC(2024, 4, 1, 12, 0, 0, 123));

  it('formats with exactly six fractional digits in UTC, microseconds being the whole sub-second part', () => {
    expect(formatMicroTime(date)).toBe('2024-05-01T12:00:00.123000Z');
    expect(formatMicroTime(date, 123456)).toBe('2024-05-01T12:00:00.123456Z');
    expect(formatMicroTime(date, 123007)).toBe('2024-05-01T12:00:00.123007Z');
    expect(formatMicroTime(date, 123000)).toBe('2024-05-01T12:00:00.123000Z');
    expect(formatMicroTime(new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 999)), 999999)).toBe(
      '1999-12-31T23:59:59.999999Z',
    );
    expect(formatMicroTime(new Date(Date.UTC(2024, 0, 1)), 7)).toBe('2024-01-01T00:00:00.000007Z');
  });

  it('formatMicroTime(p.date, p.microseconds) gives back what parseMicroTime read', () => {
    const parsed = parseMicroTime('2024-05-01T12:00:00.123456Z');
    expect(parsed.microseconds).toBe(123456);
    expect(formatMicroTime(parsed.date, parsed.microseconds)).toBe('2024-05-01T12:00:00.123456Z');
  });

  it('rejects microseconds whose milliseconds disagree with the date, naming both', () => {
    // The old 0..999 convention on a date with milliseconds: refused rather than silently moved.
    expect(() => formatMicroTime(date, 456)).toThrow(
      "microseconds 456 disagree with the date's milliseconds .123: expected 123000..123999",
    );
    expect(() => formatMicroTime(date, 124000)).toThrow(RangeError);
    expect(() => formatMicroTime(date, 122999)).toThrow(RangeError);
  });

  it('formats Time at second precision', () => {
    expect(formatTime(date)).toBe('2024-05-01T12:00:00Z');
    expect(formatTime(new Date('2024-02-29T23:59:59.999Z'))).toBe('2024-02-29T23:59:59Z');
  });

  it.each([-1, 1_000_000, 123456.5, Number.NaN, Number.POSITIVE_INFINITY])(
    'rejects %s microseconds as outside 0..999999',
    (micros) => {
      expect(() => formatMicroTime(date, micros)).toThrow(
        `microseconds must be an integer in 0..999999 (the whole sub-second part), got ${micros}`,
      );
    },
  );

  it('rejects invalid dates and years RFC3339 cannot express', () => {
    expect(() => formatMicroTime(new Date(Number.NaN))).toThrow('Invalid Date');
    expect(() => formatTime(new Date(Number.NaN))).toThrow('Invalid Date');
    expect(() => formatTime(new Date(Date.UTC(10000, 0, 1)))).toThrow(RangeError);
    expect(() => formatTime(new Date(Date.UTC(-1, 0, 1)))).toThrow(RangeError);
  });
});

describe('parseMicroTime', () => {
  it('parses the Kubernetes wire format', () => {
    const { date, microseconds } = parseMicroTime('2024-05-01T12:00:00.123456Z');
    expect(date.toISOString()).toBe('2024-05-01T12:00:00.123Z');
    expect(microseconds).toBe(123456);
  });

  it('parses an offset into the same instant', () => {
    const { date, microseconds } = parseMicroTime('2024-05-01T14:30:00.000001+02:30');
    expect(date.toISOString()).toBe('2024-05-01T12:00:00.000Z');
    expect(microseconds).toBe(1);
    expect(parseMicroTime('2024-05-01T00:00:00.500000-05:00').date.toISOString()).toBe('2024-05-01T05:00:00.500Z');
  });

  it('handles leap days and years below 100', () => {
    expect(parseMicroTime('2024-02-29T00:00:00.000000Z').date.toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(parseMicroTime('2000-02-29T00:00:00.000000Z').date.toISOString()).toBe('2000-02-29T00:00:00.000Z');
    expect(parseMicroTime('0001-01-01T00:00:00.000000Z').date.toISOString()).toBe('0001-01-01T00:00:00.000Z');
    expect(parseMicroTime('0099-12-31T23:59:59.999999Z').date.toISOString()).toBe('0099-12-31T23:59:59.999Z');
  });

  it.each([
    '2024-05-01T12:00:00Z',
    '2024-05-01T12:00:00.123Z',
    '2024-05-01T12:00:00.12345Z',
    '2024-05-01T12:00:00.1234567Z',
    '2024-05-01T12:00:00.123456',
    '2024-05-01 12:00:00.123456Z',
    '2024-05-01t12:00:00.123456z',
    '2024-05-01T12:00:00.123456+0200',
    '2024-5-01T12:00:00.123456Z',
    '2024-13-01T12:00:00.123456Z',
    '2024-00-01T12:00:00.123456Z',
    '2023-02-29T12:00:00.123456Z',
    '1900-02-29T12:00:00.123456Z',
    '2024-04-31T12:00:00.123456Z',
    '2024-05-00T12:00:00.123456Z',
    '2024-05-01T24:00:00.123456Z',
    '2024-05-01T12:60:00.123456Z',
    '2024-05-01T12:00:60.123456Z',
    '2024-05-01T12:00:00.123456+24:00',
    '2024-05-01T12:00:00.123456+01:60',
    ' 2024-05-01T12:00:00.123456Z',
    '2024-05-01T12:00:00.123456Z\n',
    '',
    'now',
  ])('rejects %j with a TypeError naming the value', (value) => {
    expect(() => parseMicroTime(value)).toThrow(TypeError);
    expect(() => parseMicroTime(value)).toThrow(`Invalid MicroTime ${JSON.stringify(value)}`);
    expect(isMicroTime(value)).toBe(false);
    expect(() => asMicroTime(value)).toThrow(TypeError);
  });

  it('round-trips: format(parse(v)) === v and parse(format(d, µs)) gives d and µs back, for random values and the boundaries', () => {
    let seed = 42;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const min = Date.parse('0000-01-01T00:00:00.000Z');
    const max = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    const cases: Array<{ ms: number; micros: number }> = [];
    for (let i = 0; i < 10_000; i++) {
      // Whole seconds and the sub-second part drawn separately: one draw has too few bits to vary both.
      const second = Math.floor(min / 1000) + Math.floor(random() * ((max - min) / 1000));
      const micros = Math.floor(random() * 1_000_000);
      cases.push({ ms: second * 1000 + Math.floor(micros / 1000), micros });
    }
    for (const ms of [min, 0, -1, Date.UTC(2024, 1, 29, 23, 59, 59, 999), max]) {
      const subMs = ((ms % 1000) + 1000) % 1000;
      for (const micros of [subMs * 1000, subMs * 1000 + 1, subMs * 1000 + 999]) cases.push({ ms, micros });
    }
    for (const { ms, micros } of cases) {
      const value = formatMicroTime(new Date(ms), micros);
      expect(value).toMatch(MICRO_RE);
      expect(isMicroTime(value)).toBe(true);
      const parsed = parseMicroTime(value);
      expect(parsed.date.getTime()).toBe(ms);
      expect(parsed.microseconds).toBe(micros);
      expect(formatMicroTime(parsed.date, parsed.microseconds)).toBe(value);
    }
    for (const value of [
      '0000-01-01T00:00:00.000000Z',
      '1970-01-01T00:00:00.000000Z',
      '1969-12-31T23:59:59.999999Z',
      '9999-12-31T23:59:59.999999Z',
      '2024-02-29T23:59:59.000001Z',
    ]) {
      const parsed = parseMicroTime(value);
      expect(formatMicroTime(parsed.date, parsed.microseconds)).toBe(value);
    }
  });

  it('normalises offset inputs to Z on the way back', () => {
    const parsed = parseMicroTime('2024-01-01T01:00:00.654321+01:00');
    expect(formatMicroTime(parsed.date, parsed.microseconds)).toBe('2024-01-01T00:00:00.654321Z');
  });
});

describe('parseTime', () => {
  it('parses the Kubernetes wire format', () => {
    expect(parseTime('2024-05-01T12:00:00Z').toISOString()).toBe('2024-05-01T12:00:00.000Z');
    expect(parseTime('2024-05-01T12:00:00-07:00').toISOString()).toBe('2024-05-01T19:00:00.000Z');
  });

  it('tolerates a fraction of any length, truncated to milliseconds', () => {
    expect(parseTime('2024-05-01T12:00:00.1Z').toISOString()).toBe('2024-05-01T12:00:00.100Z');
    expect(parseTime('2024-05-01T12:00:00.123456789Z').toISOString()).toBe('2024-05-01T12:00:00.123Z');
    expect(parseTime('2024-05-01T12:00:00.999999+00:00').toISOString()).toBe('2024-05-01T12:00:00.999Z');
  });

  it.each([
    '2024-05-01T12:00:00',
    '2024-05-01T12:00:00.Z',
    '2024-05-01',
    '2024-02-30T00:00:00Z',
    'Wed, 01 May 2024 12:00:00 GMT',
    '',
  ])('rejects %j', (value) => {
    expect(() => parseTime(value)).toThrow(`Invalid Time ${JSON.stringify(value)}`);
    expect(isTime(value)).toBe(false);
  });

  it('round-trips with formatTime', () => {
    for (const value of [
      '2024-05-01T12:00:00Z',
      '1970-01-01T00:00:00Z',
      '0001-01-01T00:00:00Z',
      '9999-12-31T23:59:59Z',
    ]) {
      expect(formatTime(parseTime(value))).toBe(value);
    }
  });
});

describe('guards and assertions', () => {
  it('brand only well-formed values', () => {
    expect(isTime('2024-05-01T12:00:00Z')).toBe(true);
    expect(isTime('2024-05-01T12:00:00+01:00')).toBe(true);
    // A fraction is tolerated when reading but is not the canonical Time wire form.
    expect(isTime('2024-05-01T12:00:00.5Z')).toBe(false);
    expect(isMicroTime('2024-05-01T12:00:00.123456Z')).toBe(true);
    expect(isMicroTime('2024-05-01T12:00:00Z')).toBe(false);
    expect(asTime('2024-05-01T12:00:00Z')).toBe('2024-05-01T12:00:00Z');
    expect(asMicroTime('2024-05-01T12:00:00.123456Z')).toBe('2024-05-01T12:00:00.123456Z');
    expect(() => asTime('2024-05-01T12:00:00.123456Z')).toThrow('Invalid Time "2024-05-01T12:00:00.123456Z"');
    expect(() => asMicroTime('yesterday')).toThrow('Invalid MicroTime "yesterday"');
  });

  it('reject non-strings from untyped callers', () => {
    expect(isTime(undefined as unknown as string)).toBe(false);
    expect(isMicroTime(42 as unknown as string)).toBe(false);
    expect(() => parseTime(null as unknown as string)).toThrow(TypeError);
  });
});
