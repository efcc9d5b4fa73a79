import { describe, expect, it } from 'vitest';
import { shareIdenticalModules } from '../../../generator/emit/share-identical-modules.js';
import type { GroupVersionIr, ReleaseIr } from '../../../generator/ir/types.js';

const gv = (release: string, version: string): GroupVersionIr => ({
  release,
  group: 'coordination.k8s.io',
  version,
  root: version === 'v1',
  resources: [],
  paths: [],
  operations: [],
  models: [],
});
const release = (name: string, ...versions: string[]): ReleaseIr => ({
  release: name,
  groupVersions: versions.map((v) => gv(name, v)),
});
const header = (release: string): string => `// generated\n// Source: ${release}\n// Regenerate.`;
const MODULES = ['models.ts', 'paths.ts', 'operations.ts', 'watches.ts'];

/** One folder's four modules, each body derived from `body` so a test can make exactly one of them differ. */
function folder(path: string, source: string, body: (module: string) => string): Array<[string, string]> {
  return MODULES.map((m) => [`${path}/${m}`, `${header(source)}\n${body(m)}\n`]);
}

describe('shareIdenticalModules: a release that repeats an API ships it once', () => {
  it('re-exports a folder whose modules all match the previous release, from the first release that had them', () => {
    const sources = new Map([
      ...folder('v1_33', '1.33', (m) => `lease ${m}`),
      ...folder('v1_34', '1.34', (m) => `lease ${m}`),
      ...folder('v1_35', '1.35', (m) => `lease ${m}`),
    ]);
    const shared = shareIdenticalModules(sources, [
      release('1.33.1', 'v1'),
      release('1.34.0', 'v1'),
      release('1.35.0', 'v1'),
    ]);
    expect(shared.get('v1_33/operations.ts')).toBe(sources.get('v1_33/operations.ts'));
    expect(shared.get('v1_34/operations.ts')).toContain("export * from '../v1_33/operations.js';");
    expect(shared.get('v1_35/models.ts')).toContain("export * from '../v1_33/models.js';");
    expect(shared.get('v1_35/models.ts')?.startsWith(header('1.35'))).toBe(true);
  });

  it('keeps a folder whole when any one of its modules differs (its operations would name the wrong models)', () => {
    const sources = new Map([
      ...folder('v1_30', '1.30', (m) => `lease ${m}`),
      ...folder('v1_31', '1.31', (m) => (m === 'models.ts' ? 'LeaseSpec with preferredHolder' : `lease ${m}`)),
    ]);
    const shared = shareIdenticalModules(sources, [release('1.30.0', 'v1'), release('1.31.1', 'v1')]);
    for (const m of MODULES) expect(shared.get(`v1_31/${m}`)).toBe(sources.get(`v1_31/${m}`));
  });

  it("shares another group version's folder only when the release's Lease models, which it imports, match too", () => {
    const candidate = (m: string): string => `candidate ${m}`;
    const sources = new Map([
      ...folder('v1_33', '1.33', (m) => `lease ${m}`),
      ...folder('v1_33/v1beta1', '1.33', candidate),
      ...folder('v1_34', '1.34', (m) => (m === 'models.ts' ? 'ObjectMeta changed' : `lease ${m}`)),
      ...folder('v1_34/v1beta1', '1.34', candidate),
      ...folder('v1_35', '1.35', (m) => (m === 'models.ts' ? 'ObjectMeta changed' : `lease ${m}`)),
      ...folder('v1_35/v1beta1', '1.35', candidate),
    ]);
    const shared = shareIdenticalModules(sources, [
      release('1.33.1', 'v1', 'v1beta1'),
      release('1.34.0', 'v1', 'v1beta1'),
      release('1.35.0', 'v1', 'v1beta1'),
    ]);
    expect(shared.get('v1_34/v1beta1/models.ts')).toBe(sources.get('v1_34/v1beta1/models.ts'));
    expect(shared.get('v1_35/v1beta1/watches.ts')).toContain("export * from '../../v1_34/v1beta1/watches.js';");
    expect(shared.get('v1_35/paths.ts')).toContain("export * from '../v1_34/paths.js';");
  });

  it('does not share a group version the previous release did not serve', () => {
    const sources = new Map([
      ...folder('v1_31', '1.31', (m) => `lease ${m}`),
      ...folder('v1_33', '1.33', (m) => `lease ${m}`),
      ...folder('v1_33/v1beta1', '1.33', (m) => `candidate ${m}`),
    ]);
    const shared = shareIdenticalModules(sources, [release('1.31.1', 'v1'), release('1.33.1', 'v1', 'v1beta1')]);
    expect(shared.get('v1_33/v1beta1/models.ts')).toBe(sources.get('v1_33/v1beta1/models.ts'));
  });
});
