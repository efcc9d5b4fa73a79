// How `-o json|yaml` print objects, as kubectl's JSON and YAML printers do; shared by get/list and watch.
import { stringify } from 'yaml';

/** kubectl's printers: keys sorted (they print a map), managedFields left out (--show-managed-fields=false). */
export function printable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(printable);
  if (typeof value !== 'object' || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    if (key === 'managedFields') continue;
    Object.defineProperty(sorted, key, {
      value: printable(Reflect.get(value, key)),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return sorted;
}

/** kubectl's JSON printer: four spaces of indent. */
export function printJson(value: unknown): string {
  return `${JSON.stringify(printable(value), null, 4)}\n`;
}

/** YAML 1.1, as kubectl's sigs.k8s.io/yaml writes it: strings that 1.1 would read as times or booleans are quoted. */
export function printYaml(value: unknown): string {
  return stringify(printable(value), { version: '1.1' });
}
