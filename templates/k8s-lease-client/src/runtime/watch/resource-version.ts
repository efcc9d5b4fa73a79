/** Ordering of Kubernetes resourceVersions, and the object key watches and informers use. */

/** The subset of an object's shape that watches, lists and informers rely on. */
export type KubeObjectLike = {
  // `| undefined` throughout: generated models take undefined in optional fields (exactOptionalPropertyTypes).
  /** The object's name, namespace and resourceVersion: its key and its place in the watch's order. */
  metadata?:
    | {
        name?: string | undefined;
        namespace?: string | undefined;
        resourceVersion?: string | undefined;
        uid?: string | undefined;
      }
    | undefined;
};

/**
 * True when `candidate` is newer than `current`. resourceVersions are opaque
 * to clients in principle, but every real server (etcd revisions) and the
 * test server use decimal integers, which are compared numerically at any
 * length (no precision loss past 2^53). Anything else only compares for
 * (in)equality: a different value counts as newer.
 */
export function isNewerResourceVersion(candidate: string, current: string): boolean {
  if (isDecimal(candidate) && isDecimal(current)) {
    const a = stripZeros(candidate);
    const b = stripZeros(current);
    return a.length !== b.length ? a.length > b.length : a > b;
  }
  return candidate !== current;
}

/** isNewerResourceVersion for two values already known to be decimal: the hot path of a busy watch. */
export function isNewerDecimal(candidate: string, current: string): boolean {
  if (candidate.length === current.length) return candidate > current;
  // Different lengths decide at once unless a leading zero (never seen from real servers) muddles them.
  if (candidate.charCodeAt(0) !== 0x30 && current.charCodeAt(0) !== 0x30) return candidate.length > current.length;
  return isNewerResourceVersion(candidate, current);
}

/** `namespace/name`, or just `name` for cluster-scoped objects, as client-go's `MetaNamespaceKeyFunc`. */
export function objectKey(namespace: string | undefined, name: string): string {
  return namespace === undefined || namespace === '' ? name : `${namespace}/${name}`;
}

/** The key of an object, or undefined when it has no name. */
export function keyOf(object: KubeObjectLike): string | undefined {
  const metadata = object.metadata;
  const name = metadata?.name;
  return name === undefined ? undefined : objectKey(metadata?.namespace, name);
}

/** A resourceVersion written as a decimal integer, as etcd revisions are. */
export function isDecimal(value: string): boolean {
  const length = value.length;
  if (length === 0) return false;
  for (let i = 0; i < length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

function stripZeros(value: string): string {
  if (value.charCodeAt(0) !== 0x30 || value.length === 1) return value;
  let i = 0;
  while (i < value.length - 1 && value.charCodeAt(i) === 0x30) i++;
  return value.slice(i);
}

/** An empty resourceVersion means none. */
export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
