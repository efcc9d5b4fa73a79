// How Go's fmt prints the decoded patch map that kube-apiserver puts in a strategic merge patch's Invalid
// `patch` cause (patch.go applyPatchToObject: fmt.Sprintf("%+v", patchMap)). Hand-written because that
// rendering is what clients read: map[key:value ...] with sorted keys, [a b] slices, <nil>, unquoted
// strings, int64 for integer literals (kjson PreserveInts) and %g-style floats otherwise.
import type { JsonValue } from '../json.js';
import { isJsonObject } from '../json.js';

/** strconv.FormatFloat(f, 'g', -1, 64), which %v uses for float64: exponent form below 1e-4 or from 1e6 (ftoa.go: eprec 6 for the shortest form). */
export function goFloat(value: number): string {
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const [mantissa = '', exponentText = '0'] = value.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 6) {
    const sign = exponent < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return String(value);
}

/**
 * One value as %+v prints it. `floats` holds the paths of number literals that are not plain integers
 * (the body parser's `numbers`), which Go decodes as float64 rather than int64.
 */
export function goValue(
  value: JsonValue,
  floats: ReadonlySet<string> | ReadonlyMap<string, string>,
  path = '',
): string {
  if (value === null) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return floats.has(path) ? goFloat(value) : String(value);
  if (Array.isArray(value)) return `[${value.map((item, i) => goValue(item, floats, `${path}[${i}]`)).join(' ')}]`;
  if (!isJsonObject(value)) return '';
  const keys = Object.keys(value).sort();
  const child = (key: string): string => (path === '' ? key : `${path}.${key}`);
  return `map[${keys.map((key) => `${key}:${goValue(value[key] ?? null, floats, child(key))}`).join(' ')}]`;
}
