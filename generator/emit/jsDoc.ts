/**
 * Spec text becomes JSDoc. Descriptions are upstream data and may contain
 * anything: `*\/` would close the comment and let the rest run as code, and
 * U+2028/U+2029 are line terminators that would break the ` * ` gutter.
 * Backticks and `${` are harmless inside a comment and kept as they are.
 */
export function jsDocText(description: string): string {
  return description
    .replace(/\r\n?/g, '\n')
    .replace(/[\u2028\u2029]/g, '\n')
    .replace(/\*\//g, '*\\/')
    // A line starting with `@` would be read as a JSDoc tag.
    .replace(/^(\s*)@/gm, '$1\\@')
    .replace(/[ \t]+$/gm, '')
    .trim();
}

/** JSDoc blocks for ts-morph structures: a description plus tags, each tag already sanitised. */
export function jsDocs(description: string, tags: ReadonlyArray<{ tagName: string; text?: string }> = []): Array<{ description: string; tags: Array<{ tagName: string; text?: string }> }> {
  const text = jsDocText(description);
  if (text === '' && tags.length === 0) return [];
  return [{ description: text === '' ? '' : text + (tags.length > 0 ? '\n' : ''), tags: tags.map((t) => (t.text === undefined ? { tagName: t.tagName } : { tagName: t.tagName, text: jsDocText(t.text) })) }];
}
