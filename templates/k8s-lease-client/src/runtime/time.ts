/**
 * Kubernetes timestamps kept as their exact wire strings. A `Date` only holds
 * milliseconds, while Lease `acquireTime`/`renewTime` are `MicroTime`s; going
 * through `Date` would silently change the value on every read-modify-write.
 */

/** `metav1.MicroTime` on the wire: `2024-05-01T12:00:00.123456Z`. */
export type MicroTime = string & { readonly __brand: 'MicroTime' };
/** `metav1.Time` on the wire: `2024-05-01T12:00:00Z` (second precision). */
export type Time = string & { readonly __brand: 'Time' };

/** A MicroTime split into what `Date` can hold and the microseconds it cannot; `parseMicroTime` returns it. */
export interface ParsedMicroTime {
  /** The instant, truncated to the millisecond. */
  date: Date;
  /** Microseconds within the second, 0..999999: the whole sub-second part (its milliseconds are also in `date`). Pass it to `formatMicroTime` as is. */
  microseconds: number;
}

// Kubernetes serialises with Go's RFC3339Micro (`2006-01-02T15:04:05.000000Z07:00`): always exactly six digits.
const MICRO_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{6})(Z|[+-]\d{2}:\d{2})$/;
// Go's RFC3339 (`2006-01-02T15:04:05Z07:00`): what the API server emits for `Time`.
const TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(Z|[+-]\d{2}:\d{2})$/;
// Go's time.Parse also accepts a fraction in an RFC3339 `Time`, so a tolerant reader must too.
const TIME_WITH_OPTIONAL_FRACTION = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/;

const MS_PER_MINUTE = 60_000;
// Date.UTC maps years 0..99 to 1900..1999; 400 Gregorian years are exactly this many ms, so shifting by them is exact.
const MS_PER_400_YEARS = 146_097 * 86_400_000;

/**
 * The current time as a MicroTime. Without a clock, `performance.timeOrigin +
 * performance.now()` supplies the sub-millisecond digits `Date.now()` lacks.
 * The clock returns milliseconds since the epoch and may be fractional.
 */
export function microTimeNow(clock?: () => number): MicroTime {
  // Around 1.7e12 ms a double only resolves ~0.24 µs, so `now - Math.floor(now)` can land just below the intended
  // microsecond; rounding the whole value in µs (exact below 2^53, i.e. until year 2255) avoids that.
  const totalMicros = Math.round((clock ? clock() : performance.timeOrigin + performance.now()) * 1000);
  const ms = Math.floor(totalMicros / 1000);
  // No range check, unlike formatMicroTime, which keeps it out of the bundles of renewers (they only need the
  // current time): the platform clock is always within years 0000..9999; an injected clock must be too (NaN throws).
  return new Date(ms).toISOString().replace('Z', `${String(totalMicros - ms * 1000).padStart(3, '0')}Z`) as MicroTime;
}

/** The current time as a Time (second precision). */
export function timeNow(clock?: () => number): Time {
  return formatTime(new Date(Math.floor(clock === undefined ? Date.now() : clock())));
}

/**
 * Formats an instant as a UTC MicroTime. `microseconds` is the whole
 * sub-second part, 0..999999, the same convention as
 * `parseMicroTime(...).microseconds`, so `formatMicroTime(p.date, p.microseconds)`
 * gives back the value `p` was parsed from (normalised to `Z`). The seconds come
 * from `date`; when `microseconds` is given, its milliseconds (`microseconds / 1000`,
 * rounded down) must equal `date`'s, so a caller who meant something else gets a
 * RangeError rather than a silently different timestamp. Without it, the
 * fraction is `date`'s milliseconds followed by `000`.
 */
export function formatMicroTime(date: Date, microseconds?: number): MicroTime {
  const iso = isoString(date);
  if (microseconds === undefined) return `${iso.slice(0, 23)}000Z` as MicroTime;
  if (!(Number.isInteger(microseconds) && microseconds >= 0 && microseconds < 1_000_000)) {
    throw new RangeError(
      `microseconds must be an integer in 0..999999 (the whole sub-second part), got ${microseconds}`,
    );
  }
  const fraction = String(microseconds).padStart(6, '0');
  if (fraction.slice(0, 3) !== iso.slice(20, 23)) {
    throw new RangeError(
      `microseconds ${microseconds} disagree with the date's milliseconds .${iso.slice(20, 23)}: expected ${iso.slice(20, 23)}000..${iso.slice(20, 23)}999`,
    );
  }
  return `${iso.slice(0, 20)}${fraction}Z` as MicroTime;
}

/** Formats `date` as a UTC Time, dropping the sub-second part (Kubernetes `Time` has second precision). */
export function formatTime(date: Date): Time {
  return `${isoString(date).slice(0, 19)}Z` as Time;
}

/** Parses Kubernetes' MicroTime format, exactly six fractional digits, `Z` or a `±HH:MM` offset. */
export function parseMicroTime(value: string): ParsedMicroTime {
  const parsed = typeof value === 'string' ? parseWith(MICRO_TIME, value) : undefined;
  if (parsed === undefined) {
    throw new TypeError(`Invalid MicroTime ${JSON.stringify(value)}: expected YYYY-MM-DDTHH:MM:SS.ffffffZ`);
  }
  return parsed;
}

/** Parses a Kubernetes Time (RFC3339). Tolerates a fractional part, which is truncated to milliseconds. */
export function parseTime(value: string): Date {
  const parsed = typeof value === 'string' ? parseWith(TIME_WITH_OPTIONAL_FRACTION, value) : undefined;
  if (parsed === undefined) {
    throw new TypeError(`Invalid Time ${JSON.stringify(value)}: expected RFC3339 such as YYYY-MM-DDTHH:MM:SSZ`);
  }
  return parsed.date;
}

/** Whether `value` is a MicroTime in Kubernetes' exact wire format (six fractional digits); narrows it to `MicroTime`. */
export function isMicroTime(value: string): value is MicroTime {
  return typeof value === 'string' && parseWith(MICRO_TIME, value) !== undefined;
}

/** Strict: only the fraction-free form Kubernetes emits, so a branded Time always round-trips unchanged. */
export function isTime(value: string): value is Time {
  return typeof value === 'string' && parseWith(TIME, value) !== undefined;
}

/**
 * Brands a string as a MicroTime after checking its format, e.g. a value read from a config file.
 *
 * @example
 * ```ts
 * lease.spec = { ...lease.spec, renewTime: asMicroTime('2024-05-01T12:00:00.123456Z') };
 * ```
 *
 * @throws TypeError when `value` is not `YYYY-MM-DDTHH:MM:SS.ffffff` followed by `Z` or an offset.
 */
export function asMicroTime(value: string): MicroTime {
  if (!isMicroTime(value)) {
    throw new TypeError(`Invalid MicroTime ${JSON.stringify(value)}: expected YYYY-MM-DDTHH:MM:SS.ffffffZ`);
  }
  return value;
}

/**
 * Brands a string as a Time after checking its format (second precision, no fraction).
 *
 * @throws TypeError when `value` is not `YYYY-MM-DDTHH:MM:SS` followed by `Z` or an offset.
 */
export function asTime(value: string): Time {
  if (!isTime(value)) {
    throw new TypeError(`Invalid Time ${JSON.stringify(value)}: expected YYYY-MM-DDTHH:MM:SSZ`);
  }
  return value;
}

function isoString(date: Date): string {
  const ms = date instanceof Date ? date.getTime() : Number.NaN;
  // Years 0000..9999: outside them toISOString switches to a six-digit signed year, which RFC3339 cannot express.
  if (!(ms >= -62_167_219_200_000 && ms < 253_402_300_800_000))
    throw new RangeError(Number.isNaN(ms) ? 'Invalid Date' : 'Year out of RFC3339 range');
  return date.toISOString();
}

/**
 * Every regex above captures year, month, day, hour, minute, second, then
 * (optionally) the fraction, then the zone. Range checks are done by hand
 * because `Date.UTC` would silently roll `02-30` over into March.
 */
function parseWith(pattern: RegExp, value: string): ParsedMicroTime | undefined {
  const m = pattern.exec(value);
  if (m === null) return undefined;
  const hasFraction = m.length === 9;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  const fraction = hasFraction ? (m[7] ?? '') : '';
  const zone = (hasFraction ? m[8] : m[7]) ?? '';
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  // Go rejects leap seconds (:60) in RFC3339 too.
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const offsetMinutes = parseOffset(zone);
  if (offsetMinutes === undefined) return undefined;

  const microseconds = Number(`${fraction}000000`.slice(0, 6));
  const shift = year < 100 ? 400 : 0;
  const utc =
    Date.UTC(year + shift, month - 1, day, hour, minute, second, Math.floor(microseconds / 1000)) -
    (shift === 0 ? 0 : MS_PER_400_YEARS) -
    offsetMinutes * MS_PER_MINUTE;
  return { date: new Date(utc), microseconds };
}

function parseOffset(zone: string): number | undefined {
  if (zone === 'Z') return 0;
  const hours = Number(zone.slice(1, 3));
  const minutes = Number(zone.slice(4, 6));
  if (hours > 23 || minutes > 59) return undefined;
  return (zone[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
