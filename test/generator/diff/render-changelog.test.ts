import { describe, expect, it } from 'vitest';
import { diffReleases } from '../../../generator/diff/diff-releases.js';
import { renderChangelog } from '../../../generator/diff/render-changelog.js';
import { unexportedOperations } from '../../../generator/ir/client-surface.js';
import * as client from '../../../generated/k8s-lease-client/src/index.js';
import { releaseIr } from '../../helpers/project.js';
import { rootGroupVersionIr } from '../../../generator/ir/build-release-ir.js';

const irs = ['1.31.1', '1.33.1'].map(releaseIr);
const [v131, v133] = irs as [ReturnType<typeof releaseIr>, ReturnType<typeof releaseIr>];
const changelog = renderChangelog('1.31.1', [diffReleases(v131, v133)], unexportedOperations(irs));
const section133 = changelog.slice(changelog.indexOf('## 1.33.1'), changelog.indexOf('## 1.31.1'));

describe('CHANGELOG.md is written for the client’s users', () => {
  it('names no function the package does not export', () => {
    const named = [...changelog.matchAll(/^- `([A-Za-z]+)[ `]/gm)].map((m) => m[1]!);
    const functions = named.filter((name) => /^[a-z]/.test(name));
    expect(functions.length).toBeGreaterThan(0);
    for (const name of functions) expect(Object.keys(client)).toContain(name);
    expect(changelog).not.toContain('watchNamespacedLease ');
    expect(changelog).not.toContain('watchLeaseListForAllNamespaces');
    expect(changelog).not.toContain('watchNamespacedLeaseList');
  });

  it('lists what a JSON user meets in 1.33, and the CBOR media types in one line apart', () => {
    expect(section133).toContain(
      '1 breaking, 5 additive, 0 docs-only, plus 15 media-type changes the JSON client does not use.',
    );
    expect(section133).toContain(
      '- `deleteNamespacedLease ?ignoreStoreReadErrorWithClusterBreakingPotential` — query parameter added: boolean',
    );
    expect(section133).toContain(
      '- `DeleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential` — field added: boolean',
    );
    expect(section133).not.toMatch(/^- .*cbor/m);
    const mediaLines = section133.split('\n').filter((line) => line.includes('application/cbor'));
    expect(mediaLines).toEqual([
      'added `application/apply-patch+cbor`, `application/cbor`, `application/cbor-seq` on 15 requests/responses; nothing changes for this package, which speaks JSON.',
    ]);
  });

  it('still lists a media-type change the JSON client does use', () => {
    const lease = rootGroupVersionIr(v133);
    const removedJson = {
      release: 'next',
      groupVersions: v133.groupVersions.map((gv) =>
        gv !== lease
          ? gv
          : {
              ...gv,
              release: 'next',
              operations: gv.operations.map((o) =>
                o.name === 'readNamespacedLease'
                  ? {
                      ...o,
                      responses: o.responses.map((r) =>
                        r.code === '200'
                          ? { ...r, contentTypes: r.contentTypes.filter((t) => t !== 'application/json') }
                          : r,
                      ),
                    }
                  : o,
              ),
            },
      ),
    };
    const text = renderChangelog(
      '1.33.1',
      [diffReleases(v133, removedJson)],
      unexportedOperations([v133, removedJson]),
    );
    expect(text).toContain('1 breaking, 0 additive, 0 docs-only.');
    expect(text).toContain('- `readNamespacedLease 200` — content types changed: removed application/json');
  });
});
