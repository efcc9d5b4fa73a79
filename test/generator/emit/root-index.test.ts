// The package's root export is the newest release in spec/releases.json, whichever that is: a release
// bump moves it with no edit of any test.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { releaseModuleName } from '../../../generator/shared/release-names.js';
import { PROJECT_ROOT, manifestReleases } from '../../helpers/project.js';

type Module = Record<string, unknown> & { v1beta1?: Record<string, unknown> };

describe('root export of k8s-lease-client', () => {
  const newest = manifestReleases().at(-1)!.release;

  it(`re-exports the newest release (${newest}), Lease API and other group versions alike`, async () => {
    const root = (await import('../../../generated/k8s-lease-client/src/index.js')) as Module;
    const file = join(PROJECT_ROOT, 'generated', 'k8s-lease-client', 'src', releaseModuleName(newest), 'index.ts');
    const latest = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as Module;
    expect(root['readNamespacedLease']).toBe(latest['readNamespacedLease']);
    expect(root['readNamespacedLease']).toBeDefined();
    expect(root.v1beta1?.['createNamespacedLeaseCandidate']).toBeDefined();
    expect(root.v1beta1?.['createNamespacedLeaseCandidate']).toBe(latest.v1beta1?.['createNamespacedLeaseCandidate']);
  });
});
