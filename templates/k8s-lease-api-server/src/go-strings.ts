// Go's strings package where kube-apiserver's answers depend on it (hand-written: it encodes Go's behaviour).

/**
 * strings.Compare (and Go's `<` on strings): byte by byte over UTF-8. JavaScript compares UTF-16 code units,
 * which puts astral characters (surrogates, 0xD800…) before U+E000–U+FFFF; Go puts them after.
 */
export function compareGoStrings(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** strings.SplitN for n > 0: at most n parts, the last one keeping the separators. */
export function splitN(text: string, separator: string, n: number): string[] {
  const parts = text.split(separator);
  return parts.length <= n ? parts : [...parts.slice(0, n - 1), parts.slice(n - 1).join(separator)];
}
