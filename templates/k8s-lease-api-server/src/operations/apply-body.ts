// An apply body is YAML by media type; kubectl and most clients send JSON, which is tried first.
import type { JsonValue } from '../json.js';
import type { ParseFailure } from '../decode/parse-pool.js';
import { parseText } from '../decode/parse-pool.js';
import type { BodyFormat, ParsedText } from '../decode/parse-text.js';
import { parseTextSync } from '../decode/parse-text.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { StatusError } from '../status.js';
import { badRequest } from '../status.js';
import { parseFailureStatus } from './decode-body.js';

export type ApplyConfig = Result<{ value: JsonValue; duplicates: string[] }, StatusError>;

function formatOf(text: string): BodyFormat {
  const trimmed = text.trimStart();
  return trimmed.startsWith('{') || trimmed.startsWith('[') ? 'json' : 'yaml';
}

function config(parsed: Result<ParsedText, ParseFailure>, format: BodyFormat): ApplyConfig {
  if (parsed.ok) return ok({ value: parsed.value.value, duplicates: parsed.value.duplicates });
  return err(
    parseFailureStatus(parsed.error, (message) =>
      badRequest(format === 'json' ? `error decoding patch: ${message}` : `error decoding YAML: ${message}`),
    ),
  );
}

export function parseApplyBody(text: string): ApplyConfig {
  const format = formatOf(text);
  const parsed = parseTextSync(text, format);
  return config(parsed.ok ? parsed : err({ kind: 'syntax', message: parsed.error }), format);
}

/** parseApplyBody, with a large body parsed off the event loop (parse-pool.ts), queued as `flow`'s. */
export async function parseApplyBodyAsync(text: string, flow: string): Promise<ApplyConfig> {
  const format = formatOf(text);
  return config(await parseText(text, format, flow), format);
}
