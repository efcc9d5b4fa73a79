/** RFC 6901 JSON pointers, used to name the place of a problem in an error. */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

export function joinPointer(base: string, ...tokens: string[]): string {
  return base + tokens.map((t) => `/${escapePointerToken(t)}`).join('');
}

/**
 * The keys a local `$ref` (`#/definitions/X`) walks through: a URI fragment is
 * percent-decoded first, then each token's `~1`/`~0` unescaped (RFC 6901 §6).
 * Undefined for a ref that is not local or not well-formed.
 */
export function refTokens(ref: string): string[] | undefined {
  if (!ref.startsWith('#/')) return undefined;
  try {
    return ref
      .slice(2)
      .split('/')
      .map((raw) => unescapePointerToken(decodeURIComponent(raw)));
  } catch {
    return undefined;
  }
}

/** Resolves a local `$ref` such as `#/definitions/X`; undefined when it points nowhere. */
export function resolveLocalRef(document: unknown, ref: string): unknown {
  const tokens = refTokens(ref);
  if (tokens === undefined) return undefined;
  let node: unknown = document;
  for (const token of tokens) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
