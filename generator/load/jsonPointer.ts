/** RFC 6901 JSON pointers, used to name the place of a problem in an error. */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

export function joinPointer(base: string, ...tokens: string[]): string {
  return base + tokens.map((t) => '/' + escapePointerToken(t)).join('');
}

/** Resolves a local `$ref` such as `#/definitions/X`; undefined when it points nowhere. */
export function resolveLocalRef(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const token = decodeURIComponent(unescapePointerToken(raw));
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
