import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { GeneratorError } from '../errors.js';
import { parseUpstreamDocument, type UpstreamDocument } from './read-document.js';
import { openApiV3FileName, type GenerationTarget } from '../shared/target.js';

/** Where an offline mirror may keep a release's document, in order of preference. */
export function mirrorCandidates(dir: string, release: string, target: GenerationTarget): string[] {
  const v = `v${release}`;
  const v3 = openApiV3FileName(target);
  return [
    join(dir, v, 'swagger.json'),
    join(dir, 'kubernetes', v, 'swagger.json'),
    join(dir, v, 'api', 'openapi-spec', 'swagger.json'),
    join(dir, v, v3),
    join(dir, 'kubernetes', v, v3),
    join(dir, v, 'api', 'openapi-spec', 'v3', v3),
  ];
}

export async function findInMirror(dir: string, release: string, target: GenerationTarget): Promise<string> {
  for (const candidate of mirrorCandidates(dir, release, target)) {
    try {
      await access(candidate);
      return candidate;
    } catch {
      // try the next layout
    }
  }
  throw new GeneratorError(
    'missing-source',
    `no document for release ${release} (looked for v${release}/swagger.json and v${release}/${openApiV3FileName(target)}, also under kubernetes/)`,
    { file: dir },
  );
}

/** Downloads an upstream document; a network failure is a one-line error naming the URL. Nothing is written to disk. */
export async function download(url: string, timeoutMs = 60_000): Promise<UpstreamDocument> {
  let text: string;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    text = await response.text();
  } catch (cause) {
    const reason =
      cause instanceof Error ? ((cause.cause as Error | undefined)?.message ?? cause.message) : String(cause);
    throw new GeneratorError(
      'missing-source',
      `cannot download: ${reason} (work offline with --from DIR or --spec FILE)`,
      { file: url },
    );
  }
  return parseUpstreamDocument(url, text);
}
