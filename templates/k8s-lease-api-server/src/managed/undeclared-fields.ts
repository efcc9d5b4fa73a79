// Fields of an applied configuration its schema does not declare. kube-apiserver converts the apply
// body to a typed value before anything else (structuredmerge.go Apply → typeConverter.ObjectToTyped),
// and structured-merge-diff's validation refuses such fields with ".path: field not declared in
// schema" (typed/validate.go), whatever fieldValidation says. Kubernetes behaviour, re-implemented.
import type { JsonValue } from '../json.js';
import { isJsonObject } from '../json.js';
import type { SmdType } from './smd-type.js';
import { childType, listItemElement, resolveType } from './smd-type.js';

const MAX_REPORTED = 100;

function elementText(element: string): string {
  const body = element.slice(2);
  if (element.startsWith('v:')) return `[=${body}]`;
  const parsed = JSON.parse(body) as JsonValue;
  const entries = isJsonObject(parsed) ? Object.entries(parsed) : [];
  return `[${entries.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',')}]`;
}

function walk(value: JsonValue, type: SmdType, path: string, out: string[], depth: number): void {
  if (out.length >= MAX_REPORTED || depth > 64) return;
  const t = resolveType(type, value);
  if (t.kind === 'list' && Array.isArray(value)) {
    value.forEach((item, i) => {
      const where = t.relation === 'atomic' ? `[${i}]` : elementText(listItemElement(t, item));
      walk(item, t.items, `${path}${where}`, out, depth + 1);
    });
    return;
  }
  if (t.kind !== 'map' || !isJsonObject(value)) return;
  for (const [key, child] of Object.entries(value)) {
    const childPath = `${path}.${key}`;
    if (t.elements === undefined && !t.fields.has(key)) out.push(`${childPath}: field not declared in schema`);
    else walk(child, childType(t, key), childPath, out, depth + 1);
  }
}

/** SMD's ValidationErrors text for the undeclared fields of `value`, or undefined when there are none. */
export function undeclaredFieldsError(value: JsonValue, type: SmdType): string | undefined {
  const errors: string[] = [];
  walk(value, type, '', errors, 0);
  if (errors.length === 0) return undefined;
  errors.sort();
  return errors.length === 1 ? errors[0] : ['errors:', ...errors.map((e) => `  ${e}`)].join('\n');
}
