// The releases the package ships an OpenAPI document for (openapi/v<release>.json), in release order, and the
// document a server of one of them (or, without a release, the newest) serves.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  packagedDocument,
  packagedReleases,
} from '../../../templates/k8s-lease-api-server/src/openapi/packaged-documents.js';

function packageDir(): URL {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
  for (const release of ['1.30.0', '1.9.0', '1.31.1'])
    writeFileSync(join(dir, `v${release}.json`), JSON.stringify({ release }));
  writeFileSync(join(dir, 'README.md'), 'not a document');
  writeFileSync(join(dir, 'v1.32.json'), '{}');
  return pathToFileURL(`${dir}/`);
}

describe('packagedReleases', () => {
  it('lists the v<major>.<minor>.<patch>.json documents in release order', () => {
    expect(packagedReleases(packageDir())).toEqual(['1.9.0', '1.30.0', '1.31.1']);
  });

  it('lists none where there is no folder', () => {
    expect(packagedReleases(pathToFileURL('/nonexistent/openapi/'))).toEqual([]);
  });
});

describe('packagedDocument', () => {
  it('reads the document of the release asked for, or of the newest', () => {
    const dir = packageDir();
    const releases = packagedReleases(dir);
    expect(packagedDocument('1.30.0', releases, dir)).toEqual({ release: '1.30.0', document: { release: '1.30.0' } });
    expect(packagedDocument(undefined, releases, dir)).toEqual({ release: '1.31.1', document: { release: '1.31.1' } });
    expect(packagedDocument('1.29.0', releases, dir)).toBeUndefined();
    expect(packagedDocument(undefined, [], dir)).toBeUndefined();
  });
});
