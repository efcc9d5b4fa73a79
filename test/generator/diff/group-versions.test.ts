import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { diffReleases } from '../../../generator/diff/diff-releases.js';
import { renderChangelog } from '../../../generator/diff/render-changelog.js';
import { unexportedOperations } from '../../../generator/ir/client-surface.js';
import type { ReleaseIr } from '../../../generator/ir/types.js';
import { PROJECT_ROOT, releaseIr } from '../../helpers/project.js';

const [v130, v131, v133] = ['1.30.0', '1.31.1', '1.33.1'].map(releaseIr) as [ReleaseIr, ReleaseIr, ReleaseIr];
const served = (ir: ReleaseIr): string[] => ir.groupVersions.map((gv) => `${gv.group}/${gv.version}`);
const section = (text: string, release: string): string => {
  const start = text.indexOf(`## ${release} `);
  return text.slice(start, text.indexOf('\n## ', start + 1));
};

describe('LeaseCandidate group versions across releases', () => {
  it('each release serves the Lease API first, then the LeaseCandidate versions it has', () => {
    expect(served(v130)).toEqual(['coordination.k8s.io/v1']);
    expect(served(v131)).toEqual(['coordination.k8s.io/v1', 'coordination.k8s.io/v1alpha1']);
    expect(served(v133)).toEqual([
      'coordination.k8s.io/v1',
      'coordination.k8s.io/v1beta1',
      'coordination.k8s.io/v1alpha2',
    ]);
  });

  it('1.31 → 1.33: v1alpha1 removed is breaking, v1alpha2 and v1beta1 added are additive, each one entry', () => {
    const diff = diffReleases(v131, v133);
    const groupVersionChanges = diff.changes.filter(
      (c) => c.kind === 'group-version-added' || c.kind === 'group-version-removed',
    );
    expect(groupVersionChanges).toEqual([
      {
        kind: 'group-version-added',
        class: 'additive',
        subject: 'coordination.k8s.io/v1beta1',
        detail: 'LeaseCandidate (12 operations)',
      },
      {
        kind: 'group-version-added',
        class: 'additive',
        subject: 'coordination.k8s.io/v1alpha2',
        detail: 'LeaseCandidate (12 operations)',
      },
      {
        kind: 'group-version-removed',
        class: 'breaking',
        subject: 'coordination.k8s.io/v1alpha1',
        detail: 'LeaseCandidate (12 operations)',
      },
    ]);
    // A version that appears or disappears is one entry, not one per operation and model it holds.
    expect(diff.changes.filter((c) => c.subject.includes('LeaseCandidate'))).toEqual([]);
  });

  it('1.30 → 1.31: v1alpha1 appears as additive', () => {
    expect(diffReleases(v130, v131).changes.filter((c) => c.kind.startsWith('group-version'))).toEqual([
      {
        kind: 'group-version-added',
        class: 'additive',
        subject: 'coordination.k8s.io/v1alpha1',
        detail: 'LeaseCandidate (12 operations)',
      },
    ]);
  });

  it('changes inside a group version other than v1 name it as the release entry does (v1beta1.…)', () => {
    const beta = v133.groupVersions.find((gv) => gv.version === 'v1beta1')!;
    const edited: ReleaseIr = {
      release: 'next',
      groupVersions: v133.groupVersions.map((gv) =>
        gv !== beta
          ? gv
          : {
              ...gv,
              models: gv.models.map((m) =>
                m.name === 'LeaseCandidateSpec' && m.shape.kind === 'object'
                  ? { ...m, shape: { ...m.shape, properties: m.shape.properties.filter((p) => p.name !== 'strategy') } }
                  : m,
              ),
            },
      ),
    };
    expect(diffReleases(v133, edited).changes).toEqual([
      { kind: 'field-removed', class: 'breaking', subject: 'v1beta1.LeaseCandidateSpec.strategy', detail: 'string' },
    ]);
  });

  it('the generated CHANGELOG.md shows the 1.31 and 1.33 entries', () => {
    const changelog = readFileSync(join(PROJECT_ROOT, 'generated', 'k8s-lease-client', 'CHANGELOG.md'), 'utf8');
    const s133 = section(changelog, '1.33.1');
    expect(s133).toMatch(
      /### Breaking\n\n- `coordination\.k8s\.io\/v1alpha1` — group version removed: LeaseCandidate \(12 operations\)\n/,
    );
    expect(s133).toContain('- `coordination.k8s.io/v1beta1` — group version added: LeaseCandidate (12 operations)');
    expect(s133).toContain('- `coordination.k8s.io/v1alpha2` — group version added: LeaseCandidate (12 operations)');
    expect(section(changelog, '1.31.1')).toContain(
      '- `coordination.k8s.io/v1alpha1` — group version added: LeaseCandidate (12 operations)',
    );
    // The same text the generator renders from the IRs.
    expect(changelog).toContain(
      section(renderChangelog('1.31.1', [diffReleases(v131, v133)], unexportedOperations([v131, v133])), '1.33.1'),
    );
  });
});
