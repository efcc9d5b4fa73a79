// The generated package ships every release's normalised document in openapi/v<release>.json;
// a server started with just `{ release }` serves that release's API, as a cluster of that version would.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isJsonObject, parseJson, type JsonObject } from '../json.js';

/** openapi/ at the package root: two levels up from dist/openapi/ or src/openapi/. */
const PACKAGED_DIR: URL = new URL('../../openapi/', import.meta.url);

function compareReleases(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export function packagedReleases(dir: URL = PACKAGED_DIR): string[] {
  let names: string[];
  try {
    names = readdirSync(fileURLToPath(dir));
  } catch {
    return [];
  }
  return names
    .map((n) => /^v(\d+\.\d+\.\d+)\.json$/.exec(n)?.[1])
    .filter((r): r is string => r !== undefined)
    .sort(compareReleases);
}

/**
 * The packaged document of `release`, one of `releases` (release.ts's resolveRelease maps a requested
 * release onto a packaged one); with no release, the newest. Undefined when the package ships none
 * (e.g. running from templates/).
 */
export function packagedDocument(
  release: string | undefined,
  releases: readonly string[],
  dir: URL = PACKAGED_DIR,
): { release: string; document: JsonObject } | undefined {
  const match = release === undefined ? releases.at(-1) : releases.find((r) => r === release);
  if (match === undefined) return undefined;
  const parsed = parseJson(readFileSync(new URL(`v${match}.json`, dir), 'utf8'));
  return isJsonObject(parsed) ? { release: match, document: parsed } : undefined;
}
