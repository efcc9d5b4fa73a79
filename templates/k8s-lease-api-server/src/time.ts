// Kubernetes timestamps: Time is RFC 3339 at second precision, MicroTime has exactly six fractional digits.
//
// Hand-written on purpose: this encodes Go's time.Parse/Format as metav1.Time and metav1.MicroTime use them
// (k8s.io/apimachinery/pkg/apis/meta/v1/{time,micro_time}.go), so values and error texts are the real
// server's. Parsing never goes through JS Date, which maps years 0-99 to 1900-1999 and, at microsecond
// resolution, loses precision near the ends of the 0000-9999 range; the calendar arithmetic is exact.
import type { Result } from './result.js';
import { err, ok } from './result.js';

export const MICRO_TIME_LAYOUT = '2006-01-02T15:04:05.000000Z07:00';
export const TIME_LAYOUT = '2006-01-02T15:04:05Z07:00';

/** The server clock's now as a Time (the clock is always within Date's range). */
export function formatTime(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

export function formatMicroTime(epochMs: number, extraMicros = 0): string {
  const iso = new Date(Math.floor(epochMs)).toISOString();
  const micros = String((Math.floor(epochMs) % 1000) * 1000 + extraMicros).padStart(6, '0');
  return `${iso.slice(0, 19)}.${micros}Z`;
}

type Element =
  | { kind: 'literal'; text: string }
  | { kind: 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'frac6' | 'tz'; layout: string };

const DATE_ELEMENTS: Element[] = [
  { kind: 'year', layout: '2006' },
  { kind: 'literal', text: '-' },
  { kind: 'month', layout: '01' },
  { kind: 'literal', text: '-' },
  { kind: 'day', layout: '02' },
  { kind: 'literal', text: 'T' },
  { kind: 'hour', layout: '15' },
  { kind: 'literal', text: ':' },
  { kind: 'minute', layout: '04' },
  { kind: 'literal', text: ':' },
  { kind: 'second', layout: '05' },
];
const MICRO_ELEMENTS: Element[] = [
  ...DATE_ELEMENTS,
  { kind: 'frac6', layout: '.000000' },
  { kind: 'tz', layout: 'Z07:00' },
];
const TIME_ELEMENTS: Element[] = [...DATE_ELEMENTS, { kind: 'tz', layout: 'Z07:00' }];

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  nanos: number;
  offsetSeconds: number;
}

/** An instant as Go's time.Time holds it: whole seconds since the Unix epoch plus nanoseconds. */
export interface Instant {
  seconds: number;
  nanos: number;
}

const SECONDS_PER_DAY = 86_400;

const isDigit = (s: string, i: number): boolean => i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;

/** Go's getnum: one or two digits, two required when fixed. */
function getNum(s: string, fixed: boolean): { n: number; rest: string } | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) return fixed ? undefined : { n: Number(s[0]), rest: s.slice(1) };
  return { n: Number(s.slice(0, 2)), rest: s.slice(2) };
}

/** Go's atoi: an optional sign, then digits only (none at all reads as 0). */
function goAtoi(s: string): number | undefined {
  const match = /^([+-]?)(\d*)$/.exec(s);
  if (match === null) return undefined;
  const n = Number(match[2] === '' ? '0' : match[2]);
  return match[1] === '-' ? -n : n;
}

/** Go's parseNanoseconds: the fraction after '.' or ',' (at most nine digits) scaled to nanoseconds. */
function parseNanoseconds(value: string, nbytes: number): { nanos: number } | { range: string } | undefined {
  if (value[0] !== '.' && value[0] !== ',') return undefined;
  const n = Math.min(nbytes, 10);
  const x = goAtoi(value.slice(1, n));
  if (x === undefined) return undefined;
  if (x < 0) return { range: 'fractional second' };
  return { nanos: x * 10 ** (10 - n) };
}

const isLeap = (year: number): boolean => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

function daysIn(month: number, year: number): number {
  if (month === 2) return isLeap(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil; exact for any year). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * ((month + 9) % 12) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** Go's time.quote: ASCII as is (with \" and \\), every byte of anything else as \xNN. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (code >= 0x80 || code < 0x20) {
      // A lone surrogate cannot come from valid UTF-8; Go's JSON decoding turns it into U+FFFD.
      const bytes = Buffer.from(code >= 0xd800 && code <= 0xdfff ? '\ufffd' : ch, 'utf8');
      for (const byte of bytes) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    } else {
      out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
    }
  }
  return `${out}"`;
}

/** Go's time.Parse for the two layouts Kubernetes uses, element by element, with Go's error texts. */
function parseLayout(value: string, layout: string, elements: Element[]): Result<Parts, string> {
  const cannot = (valueElem: string, layoutElem: string): Result<Parts, string> =>
    err(
      `parsing time ${goQuote(value)} as ${goQuote(layout)}: cannot parse ${goQuote(valueElem)} as ${goQuote(layoutElem)}`,
    );
  const outOfRange = (what: string): Result<Parts, string> =>
    err(`parsing time ${goQuote(value)}: ${what} out of range`);
  const parts: Parts = { year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0, nanos: 0, offsetSeconds: 0 };
  let rest = value;
  for (let i = 0; i < elements.length; i++) {
    const el = elements[i];
    if (el === undefined) break;
    if (el.kind === 'literal') {
      if (!rest.startsWith(el.text)) return cannot(rest, el.text);
      rest = rest.slice(el.text.length);
      continue;
    }
    const hold = rest;
    let range = '';
    switch (el.kind) {
      case 'year': {
        if (!/^\d{4}/.test(rest)) return cannot(hold, el.layout);
        parts.year = Number(rest.slice(0, 4));
        rest = rest.slice(4);
        break;
      }
      case 'month':
      case 'day':
      case 'hour':
      case 'minute':
      case 'second': {
        const got = getNum(rest, el.kind !== 'hour');
        if (got === undefined) return cannot(hold, el.layout);
        rest = got.rest;
        parts[el.kind] = got.n;
        // The day is checked against its month once everything is parsed, as Go does.
        const max = { month: 12, day: 99, hour: 23, minute: 59, second: 59 }[el.kind];
        if (got.n > max || (el.kind === 'month' && got.n === 0)) range = el.kind;
        // Go accepts a fraction after the seconds when the layout has none (RFC 3339 Time).
        if (el.kind === 'second' && range === '' && elements[i + 1]?.kind !== 'frac6' && /^[.,]\d/.test(rest)) {
          const n = 1 + (/^[.,](\d+)/.exec(rest)?.[1]?.length ?? 0);
          const frac = parseNanoseconds(rest, n);
          if (frac === undefined) return cannot(hold, el.layout);
          if ('range' in frac) return outOfRange(frac.range);
          parts.nanos = frac.nanos;
          rest = rest.slice(n);
        }
        break;
      }
      case 'frac6': {
        if (rest.length < 7) return cannot(hold, el.layout);
        const frac = parseNanoseconds(rest, 7);
        if (frac === undefined) return cannot(hold, el.layout);
        if ('range' in frac) return outOfRange(frac.range);
        parts.nanos = frac.nanos;
        rest = rest.slice(7);
        break;
      }
      case 'tz': {
        if (rest.startsWith('Z')) {
          rest = rest.slice(1);
          break;
        }
        if (rest.length < 6 || rest[3] !== ':') return cannot(hold, el.layout);
        const sign = rest[0];
        const hh = getNum(rest.slice(1, 3), true);
        const mm = hh === undefined ? undefined : getNum(rest.slice(4, 6), true);
        const hours = hh?.n ?? 0;
        const minutes = mm?.n ?? 0;
        if (hours > 24) range = 'time zone offset hour';
        if (minutes > 60) range = 'time zone offset minute';
        if (range === '' && (hh === undefined || mm === undefined || (sign !== '+' && sign !== '-')))
          return cannot(hold, el.layout);
        parts.offsetSeconds = (sign === '-' ? -1 : 1) * (hours * 60 + minutes) * 60;
        rest = rest.slice(6);
        break;
      }
    }
    if (range !== '') return outOfRange(range);
  }
  if (rest.length > 0) return err(`parsing time ${goQuote(value)}: extra text: ${goQuote(rest)}`);
  if (parts.day < 1 || parts.day > daysIn(parts.month, parts.year)) return outOfRange('day');
  return ok(parts);
}

function toInstant(p: Parts): Instant {
  const seconds =
    daysFromCivil(p.year, p.month, p.day) * SECONDS_PER_DAY +
    p.hour * 3600 +
    p.minute * 60 +
    p.second -
    p.offsetSeconds;
  return { seconds, nanos: p.nanos };
}

/** Go's time.Time.IsZero: January 1, year 1, 00:00:00 UTC, which metav1 marshals as null. */
const ZERO_SECONDS = daysFromCivil(1, 1, 1) * SECONDS_PER_DAY;
const isZero = (t: Instant): boolean => t.seconds === ZERO_SECONDS && t.nanos === 0;

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** Go's Format in UTC; the year as appendInt writes it (-0001, 10000), which an offset can push out of 0000-9999. */
function formatInstant(t: Instant, withMicros: boolean): string {
  const days = Math.floor(t.seconds / SECONDS_PER_DAY);
  const secondOfDay = t.seconds - days * SECONDS_PER_DAY;
  const { year, month, day } = civilFromDays(days);
  const yearText = year < 0 ? `-${pad(-year, 4)}` : pad(year, 4);
  const clock = `${pad(Math.floor(secondOfDay / 3600), 2)}:${pad(Math.floor((secondOfDay % 3600) / 60), 2)}:${pad(secondOfDay % 60, 2)}`;
  const fraction = withMicros ? `.${pad(Math.floor(t.nanos / 1000), 6)}` : '';
  return `${yearText}-${pad(month, 2)}-${pad(day, 2)}T${clock}${fraction}Z`;
}

/**
 * A MicroTime as kube-apiserver stores and returns it: parsed with RFC3339Micro, re-rendered in UTC
 * with six digits; null for Go's zero time (MarshalJSON writes null). The error text is Go's.
 * Checked against Go's time.Parse/Format for the cases in test/k8s-lease-api-server/time.test.ts.
 */
export function parseMicroTime(value: string): Result<string | null, string> {
  const parsed = parseLayout(value, MICRO_TIME_LAYOUT, MICRO_ELEMENTS);
  if (!parsed.ok) return parsed;
  const instant = toInstant(parsed.value);
  return ok(isZero(instant) ? null : formatInstant(instant, true));
}

/**
 * A Time (RFC 3339) as kube-apiserver returns it: UTC at second precision (Time.ProtoTime stores whole
 * seconds only), so anything within the first second of year 1 is the zero time, marshalled as null.
 */
export function parseTime(value: string): Result<string | null, string> {
  const parsed = parseLayout(value, TIME_LAYOUT, TIME_ELEMENTS);
  if (!parsed.ok) return parsed;
  const instant = { seconds: toInstant(parsed.value).seconds, nanos: 0 };
  return ok(isZero(instant) ? null : formatInstant(instant, false));
}

export function timeToEpochMs(value: string): number {
  return Date.parse(value);
}

const MIN_YEAR_SECONDS = daysFromCivil(0, 1, 1) * SECONDS_PER_DAY;
const MAX_YEAR_SECONDS = daysFromCivil(10000, 1, 1) * SECONDS_PER_DAY;

/**
 * time.Unix(seconds, nanos) rendered as Time (whole seconds) or MicroTime (six digits) in UTC, as the protobuf
 * decoder of metav1.Time/MicroTime followed by MarshalJSON gives it: null for the zero time, undefined when
 * the year falls outside 0000-9999 (MarshalJSON's "year outside of range").
 */
export function timeFromUnix(seconds: number, nanos: number, micro: boolean): string | null | undefined {
  // time.Unix normalises nanos outside [0, 1e9) into the seconds.
  const carry = Math.floor(nanos / 1e9);
  const instant: Instant = { seconds: seconds + carry, nanos: micro ? nanos - carry * 1e9 : 0 };
  if (!Number.isSafeInteger(instant.seconds)) return undefined;
  if (instant.seconds < MIN_YEAR_SECONDS || instant.seconds >= MAX_YEAR_SECONDS) return undefined;
  return isZero(instant) ? null : formatInstant(instant, micro);
}

/** The Unix seconds and nanos of a stored Time or MicroTime (always in the canonical UTC form). */
export function unixOfTime(value: string, micro: boolean): Instant | undefined {
  const parsed = micro
    ? parseLayout(value, MICRO_TIME_LAYOUT, MICRO_ELEMENTS)
    : parseLayout(value, TIME_LAYOUT, TIME_ELEMENTS);
  if (!parsed.ok) return undefined;
  const instant = toInstant(parsed.value);
  return micro ? instant : { seconds: instant.seconds, nanos: 0 };
}
