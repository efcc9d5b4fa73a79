/**
 * Spec text becomes JSDoc. Descriptions are upstream data and may contain
 * anything: `*\/` would close the comment and let the rest run as code, and
 * U+2028/U+2029 are line terminators that would break the ` * ` gutter, and
 * `/*` confuses ts-morph's layout of the tags that follow.
 * Backticks and `${` are harmless inside a comment and kept as they are.
 */
export function jsDocText(description: string): string {
  return (
    description
      .replace(/\r\n?/g, '\n')
      .replace(/[\u2028\u2029]/g, '\n')
      .replace(/\*\//g, '*\\/')
      // ts-morph lays out the tags with a writer that tracks comments: an open `/*` would make it close the block early.
      .replace(/\/\*/g, '/\\*')
      // A line starting with `@` would be read as a JSDoc tag.
      .replace(/^(\s*)@/gm, '$1\\@')
      .replace(/[ \t]+$/gm, '')
      .trim()
  );
}

/** JSDoc blocks for ts-morph structures: a description plus tags, each tag already sanitised. */
export function jsDocs(
  description: string,
  tags: ReadonlyArray<{ tagName: string; text?: string }> = [],
): Array<{ description: string; tags: Array<{ tagName: string; text?: string }> }> {
  const text = jsDocText(description);
  if (text === '' && tags.length === 0) return [];
  return [
    {
      description: text === '' ? '' : text + (tags.length > 0 ? '\n' : ''),
      tags: tags.map((t) =>
        t.text === undefined ? { tagName: t.tagName } : { tagName: t.tagName, text: jsDocText(t.text) },
      ),
    },
  ];
}

/** `@since` for an element annotated by annotateSince; nothing when unannotated. */
export function sinceTag(element: { readonly since?: string }): Array<{ tagName: string; text: string }> {
  return element.since === undefined ? [] : [{ tagName: 'since', text: element.since }];
}

/** What a deprecated operation's description says after "deprecated:", for its `@deprecated` tag. */
export function deprecationNote(description: string): string {
  const match = /(?:^|[.;]\s+)deprecated:\s*([\s\S]*)$/i.exec(description);
  return match?.[1]?.trim() || 'deprecated upstream.';
}
