// Copied by lease-api-generator from templates/server/operations/apply-body.ts. DO NOT EDIT: edit that file and run `npm run generate`.
// An apply body is YAML by media type; kubectl and most clients send JSON, which is tried first.
import type { JsonValue } from '../json.js';
import { parseJsonStrict } from '../decode/json-parser.js';
import { parseYaml } from '../decode/yaml.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { StatusError } from '../status.js';
import { badRequest } from '../status.js';

export function parseApplyBody(text: string): Result<{ value: JsonValue; duplicates: string[] }, StatusError> {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    const json = parseJsonStrict(text);
    if (json.ok) return ok(json.value);
    return err(badRequest(`error decoding patch: ${json.error}`));
  }
  const yaml = parseYaml(text);
  if (!yaml.ok) return err(badRequest(`error decoding YAML: ${yaml.error}`));
  return ok(yaml.value);
}
