import { isClientMediaType } from '../ir/client-surface.js';
import type { ApiChange, ReleaseDiff } from './types.js';

export function diffSummary(diff: ReleaseDiff): string {
  return `vs ${diff.from}: ${diff.counts.breaking} breaking, ${diff.counts.additive} additive, ${diff.counts.docsOnly} docs-only`;
}

/** The media types a `content-types-changed` entry names (its detail is `added a, b` or `removed a, b`). */
export function changedMediaTypes(change: ApiChange): string[] {
  return change.kind === 'content-types-changed' ? change.detail.replace(/^(added|removed) /, '').split(', ') : [];
}

/** A media-type change the JSON client never meets (e.g. CBOR in 1.33): neither additive nor breaking for its users. */
export function isUnusedMediaTypeChange(change: ApiChange): boolean {
  return change.kind === 'content-types-changed' && changedMediaTypes(change).every((t) => !isClientMediaType(t));
}

/** The changes of `diff` a user of the exported functions can meet: none about operations the package does not export. */
export function userFacingChanges(diff: ReleaseDiff, unexported: ReadonlySet<string>): ApiChange[] {
  // Operation subjects are `name`, `name ?param`, `name 200` or `name request body`; model subjects never match an operation name.
  return diff.changes.filter((c) => !unexported.has(c.subject.split(' ')[0] ?? ''));
}

function changeLine(c: ApiChange): string {
  return `- \`${c.subject}\` — ${c.kind.replace(/-/g, ' ')}: ${c.detail}`;
}

function countLine(changes: readonly ApiChange[], unusedMedia: number): string {
  const count = (cls: ApiChange['class']): number => changes.filter((c) => c.class === cls).length;
  const media =
    unusedMedia > 0
      ? `, plus ${unusedMedia} media-type ${unusedMedia === 1 ? 'change' : 'changes'} the JSON client does not use`
      : '';
  return `${count('breaking')} breaking, ${count('additive')} additive, ${count('docs-only')} docs-only${media}.`;
}

/**
 * `CHANGELOG.md`, written for the client's users: one section per release, newest first, each against the
 * release before it. Changes to operations the package does not export are left out, and media-type changes
 * the JSON client never uses are summarised in one line apart (api-diff.json keeps every change, for tools).
 */
export function renderChangelog(
  first: string,
  diffs: readonly ReleaseDiff[],
  unexported: ReadonlySet<string> = new Set(),
): string {
  const lines = [
    '# API changes between Kubernetes releases',
    '',
    'Generated from the IR of consecutive releases in spec/releases.json. Each change is classified for a consumer written against the older release: **breaking**, **additive** or **docs-only**. `api-diff.json` has every change, including those to the deprecated `/watch/` operations, which this package does not export.',
    '',
  ];
  for (const diff of [...diffs].reverse()) {
    const all = userFacingChanges(diff, unexported);
    const unusedMedia = all.filter(isUnusedMediaTypeChange);
    const changes = all.filter((c) => !isUnusedMediaTypeChange(c));
    lines.push(`## ${diff.to} (compared with ${diff.from})`, '', countLine(changes, unusedMedia.length), '');
    for (const cls of ['breaking', 'additive'] as const) {
      const listed = changes.filter((c) => c.class === cls);
      if (listed.length === 0) continue;
      lines.push(`### ${cls === 'breaking' ? 'Breaking' : 'Additive'}`, '', ...listed.map(changeLine), '');
    }
    const docs = changes.filter((c) => c.class === 'docs-only');
    if (docs.length > 0) {
      lines.push(
        '### Docs only',
        '',
        `Descriptions changed on: ${docs.map((c) => `\`${c.subject}\``).join(', ')}.`,
        '',
      );
    }
    if (unusedMedia.length > 0) {
      const types = [...new Set(unusedMedia.flatMap(changedMediaTypes))].sort();
      const verbs = [...new Set(unusedMedia.map((c) => c.detail.split(' ')[0]))].sort().join('/');
      lines.push(
        '### Media types the JSON client does not use',
        '',
        `${verbs} ${types.map((t) => `\`${t}\``).join(', ')} on ${unusedMedia.length} requests/responses; nothing changes for this package, which speaks JSON.`,
        '',
      );
    }
  }
  lines.push(`## ${first}`, '', 'The oldest supported release.', '');
  return lines.join('\n');
}
