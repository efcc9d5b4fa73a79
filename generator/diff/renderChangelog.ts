import type { ApiChange, ReleaseDiff } from './types.js';

export function diffSummary(diff: ReleaseDiff): string {
  return `vs ${diff.from}: ${diff.counts.breaking} breaking, ${diff.counts.additive} additive, ${diff.counts.docsOnly} docs-only`;
}

function changeLine(c: ApiChange): string {
  return `- \`${c.subject}\` — ${c.kind.replace(/-/g, ' ')}: ${c.detail}`;
}

/** `CHANGELOG.md`: one section per release, newest first, each against the release before it. */
export function renderChangelog(first: string, diffs: readonly ReleaseDiff[]): string {
  const lines = ['# API changes between Kubernetes releases', '', 'Generated from the IR of consecutive releases in spec/releases.json. Each change is classified for a consumer written against the older release: **breaking**, **additive** or **docs-only**.', ''];
  for (const diff of [...diffs].reverse()) {
    lines.push(`## ${diff.to} (compared with ${diff.from})`, '', `${diff.counts.breaking} breaking, ${diff.counts.additive} additive, ${diff.counts.docsOnly} docs-only.`, '');
    for (const cls of ['breaking', 'additive'] as const) {
      const changes = diff.changes.filter((c) => c.class === cls);
      if (changes.length === 0) continue;
      lines.push(`### ${cls === 'breaking' ? 'Breaking' : 'Additive'}`, '', ...changes.map(changeLine), '');
    }
    const docs = diff.changes.filter((c) => c.class === 'docs-only');
    if (docs.length > 0) {
      lines.push('### Docs only', '', `Descriptions changed on: ${docs.map((c) => `\`${c.subject}\``).join(', ')}.`, '');
    }
  }
  lines.push(`## ${first}`, '', 'The oldest supported release.', '');
  return lines.join('\n');
}
