// Go's strconv as kube-apiserver's messages expose it: ParseInt(s, 10, 64) and Quote (what %q prints).
// Hand-written because the wording and the edge cases (sign, overflow before a bad digit) are the contract.
import type { Result } from '../result.js';
import { err, ok } from '../result.js';

const MAX_UINT64 = (1n << 64n) - 1n;
const INT64_CUTOFF = 1n << 63n;

const SHORT_ESCAPES: ReadonlyMap<string, string> = new Map([
  ['\u0007', '\\a'],
  ['\b', '\\b'],
  ['\f', '\\f'],
  ['\n', '\\n'],
  ['\r', '\\r'],
  ['\t', '\\t'],
  ['\u000b', '\\v'],
  ['"', '\\"'],
  ['\\', '\\\\'],
]);

// unicode.IsPrint: categories L, M, N, P, S plus the ASCII space.
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/** strconv.Quote: printable runes stay, everything else is escaped the way Go prints it. */
export function goQuote(value: string): string {
  let out = '"';
  for (const ch of value) {
    const short = SHORT_ESCAPES.get(ch);
    const code = ch.codePointAt(0) ?? 0;
    if (short !== undefined) out += short;
    else if (PRINTABLE.test(ch)) out += ch;
    else if (code < 0x80) out += `\\x${hex(code, 2)}`;
    else if (code < 0x10000) out += `\\u${hex(code, 4)}`;
    else out += `\\U${hex(code, 8)}`;
  }
  return `${out}"`;
}

function numError(text: string, reason: 'invalid syntax' | 'value out of range'): string {
  return `strconv.ParseInt: parsing ${goQuote(text)}: ${reason}`;
}

/** strconv.ParseInt(text, 10, 64), with its error text; as apimachinery's string_to_int64. */
export function parseInt64(text: string): Result<bigint, string> {
  const signed = text.startsWith('+') || text.startsWith('-');
  const digits = signed ? text.slice(1) : text;
  if (digits === '') return err(numError(text, 'invalid syntax'));
  let n = 0n;
  // ParseUint scans left to right: a bad digit after an overflow still reports the overflow.
  for (const ch of digits) {
    if (ch < '0' || ch > '9') return err(numError(text, 'invalid syntax'));
    n = n * 10n + BigInt(ch.charCodeAt(0) - 48);
    if (n > MAX_UINT64) return err(numError(text, 'value out of range'));
  }
  const negative = text.startsWith('-');
  if (!negative && n >= INT64_CUTOFF) return err(numError(text, 'value out of range'));
  if (negative && n > INT64_CUTOFF) return err(numError(text, 'value out of range'));
  return ok(negative ? -n : n);
}
