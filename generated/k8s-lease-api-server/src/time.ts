// Kubernetes timestamps: Time is RFC 3339 at second precision, MicroTime has exactly six fractional digits.
// Parsing mirrors Go's time.Parse closely enough that decode errors read like the real server's.
import type { Result } from './result.js';
import { err, ok } from './result.js';

export const MICRO_TIME_LAYOUT = '2006-01-02T15:04:05.000000Z07:00';
export const TIME_LAYOUT = '2006-01-02T15:04:05Z07:00';

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
const MICRO_ELEMENTS: Element[] = [...DATE_ELEMENTS, { kind: 'frac6', layout: '.000000' }, { kind: 'tz', layout: 'Z07:00' }];
const TIME_ELEMENTS: Element[] = [...DATE_ELEMENTS, { kind: 'tz', layout: 'Z07:00' }];

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  micros: number;
  offsetMinutes: number;
}

const isDigit = (s: string, i: number): boolean => i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;

/** Go's getnum: one or two digits, two required when fixed. */
function getNum(s: string, fixed: boolean): { n: number; rest: string } | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) return fixed ? undefined : { n: Number(s[0]), rest: s.slice(1) };
  return { n: Number(s.slice(0, 2)), rest: s.slice(2) };
}

function daysIn(month: number, year: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function parseLayout(value: string, layout: string, elements: Element[]): Result<Parts, string> {
  const q = JSON.stringify;
  const cannot = (valueElem: string, layoutElem: string): Result<Parts, string> =>
    err(`parsing time ${q(value)} as ${q(layout)}: cannot parse ${q(valueElem)} as ${q(layoutElem)}`);
  const outOfRange = (what: string): Result<Parts, string> => err(`parsing time ${q(value)}: ${what} out of range`);
  const parts: Parts = { year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0, micros: 0, offsetMinutes: 0 };
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
    switch (el.kind) {
      case 'year': {
        const p = rest.slice(0, 4);
        if (p.length < 4 || !/^\d{4}$/.test(p)) return cannot(hold, el.layout);
        parts.year = Number(p);
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
        const limits = { month: [1, 12], day: [1, 31], hour: [0, 23], minute: [0, 59], second: [0, 59] }[el.kind];
        if (got.n < (limits[0] ?? 0) || got.n > (limits[1] ?? 0)) return outOfRange(el.kind);
        parts[el.kind] = got.n;
        // Go accepts a fraction after the seconds when the layout has none (RFC 3339 Time).
        if (el.kind === 'second' && elements[i + 1]?.kind !== 'frac6' && /^[.,]\d/.test(rest)) {
          const digits = /^[.,](\d+)/.exec(rest)?.[1] ?? '';
          parts.micros = Number(digits.slice(0, 6).padEnd(6, '0'));
          rest = rest.slice(1 + digits.length);
        }
        break;
      }
      case 'frac6': {
        if (rest.length < 7 || (rest[0] !== '.' && rest[0] !== ',') || !/^\d{6}$/.test(rest.slice(1, 7))) {
          return cannot(hold, el.layout);
        }
        parts.micros = Number(rest.slice(1, 7));
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
        const mm = getNum(rest.slice(4, 6), true);
        if ((sign !== '+' && sign !== '-') || hh === undefined || mm === undefined) return cannot(hold, el.layout);
        if (hh.n > 24) return outOfRange('time zone offset hour');
        if (mm.n > 60) return outOfRange('time zone offset minute');
        parts.offsetMinutes = (sign === '-' ? -1 : 1) * (hh.n * 60 + mm.n);
        rest = rest.slice(6);
        break;
      }
    }
  }
  if (rest.length > 0) return err(`parsing time ${q(value)}: extra text: ${q(rest)}`);
  if (parts.day > daysIn(parts.month, parts.year)) return outOfRange('day');
  return ok(parts);
}

function toEpochMicros(p: Parts): number {
  const ms = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - p.offsetMinutes * 60_000;
  return ms * 1000 + p.micros;
}

function formatEpochMicros(micros: number, withFraction: boolean): string {
  const ms = Math.floor(micros / 1000);
  const base = new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19);
  if (!withFraction) return `${base}Z`;
  const frac = String(((micros % 1_000_000) + 1_000_000) % 1_000_000).padStart(6, '0');
  return `${base}.${frac}Z`;
}

/** Parses a MicroTime and returns it re-rendered in UTC, as the server stores it; the error text is Go's. */
export function parseMicroTime(value: string): Result<string, string> {
  const parsed = parseLayout(value, MICRO_TIME_LAYOUT, MICRO_ELEMENTS);
  return parsed.ok ? ok(formatEpochMicros(toEpochMicros(parsed.value), true)) : parsed;
}

/** Parses a Time (RFC 3339) and returns it truncated to seconds in UTC, as metav1.Time marshals. */
export function parseTime(value: string): Result<string, string> {
  const parsed = parseLayout(value, TIME_LAYOUT, TIME_ELEMENTS);
  return parsed.ok ? ok(formatEpochMicros(toEpochMicros(parsed.value), false)) : parsed;
}

export function timeToEpochMs(value: string): number {
  return Date.parse(value);
}
