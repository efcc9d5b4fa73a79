import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { displayPath } from '../config.js';
import { GeneratorError } from '../errors.js';
import type { ReleaseEntry } from '../manifest/manifest.js';
import { isJsonObject, parseJsonFile, type JsonObject } from '../shared/json.js';
import { contentHash } from './canonical-json.js';

/** A release's committed normalised document, checked against the manifest. */
export interface LoadedDocument {
  readonly entry: ReleaseEntry;
  readonly document: JsonObject;
  readonly documentText: string;
  /** The document's path as errors and generated headers show it. */
  readonly documentPath: string;
}

/** Reads a committed normalised document and checks it against the manifest's content hash. */
export async function loadReleaseDocument(
  specDir: string,
  entry: ReleaseEntry,
  displaySpecDir: string = specDir,
): Promise<LoadedDocument> {
  const file = join(specDir, entry.document);
  const shown = displayPath(join(displaySpecDir, entry.document));
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new GeneratorError(
      'io',
      `cannot read normalised document for ${entry.release}: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}`,
      { file: shown },
    );
  }
  const document = parseJsonFile(shown, text);
  if (!isJsonObject(document)) throw new GeneratorError('not-openapi', 'not an OpenAPI document', { file: shown });
  const actual = contentHash(document);
  if (actual !== entry.contentHash) {
    throw new GeneratorError(
      'hash-mismatch',
      `content hash ${actual} does not match ${entry.contentHash} recorded for ${entry.release} in releases.json (edited by hand? rerun spec:update)`,
      { file: shown },
    );
  }
  return { entry, document, documentText: text, documentPath: shown };
}
