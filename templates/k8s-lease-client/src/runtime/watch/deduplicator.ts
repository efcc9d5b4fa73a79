/**
 * The watch's memory of what it has yielded, per object: resumes and unordered streams may send an event
 * again, and it is yielded only once.
 */

import { isDecimal, isNewerResourceVersion, keyOf } from './resource-version.js';
import type { KubeObjectLike } from './resource-version.js';

/**
 * Per-object last yielded resourceVersion, so an event replayed at a resume
 * boundary is never yielded twice. Deleted objects are remembered until the
 * watch resumes from past their deletion, so the map does not grow with churn.
 */
export class Deduplicator {
  private readonly live = new Map<string, string>();
  private readonly tombstones = new Map<string, string>();

  /**
   * Starts over from a complete state. `watermarked`: the next watch starts at a decimal resourceVersion other
   * than "0", so it is ordered and the watermark alone drops replays of decimal resourceVersions (decideLine's
   * fast path, ./line-decision.ts); the map is never asked about these objects, so it is left empty rather than costing a key and
   * an entry per object for as long as they stay unchanged.
   */
  replace(objects: readonly KubeObjectLike[], watermarked: boolean): void {
    this.live.clear();
    this.tombstones.clear();
    if (watermarked) return;
    for (const object of objects) this.accept(object);
  }

  /** Records the object; false when it is not newer than what was yielded for its key. */
  accept(object: KubeObjectLike, deleted = false): boolean {
    const rv = object.metadata?.resourceVersion;
    const key = keyOf(object);
    if (rv === undefined || key === undefined) return true;
    const last = this.live.get(key) ?? this.tombstones.get(key);
    if (last !== undefined && !isNewerResourceVersion(rv, last)) return false;
    if (deleted) {
      this.live.delete(key);
      this.tombstones.set(key, rv);
    } else {
      this.tombstones.delete(key);
      this.live.set(key, rv);
    }
    return true;
  }

  /** A watch from `rv` cannot replay a deletion older than `rv`. */
  forgetTombstonesBefore(rv: string | undefined): void {
    if (rv === undefined || this.tombstones.size === 0) return;
    for (const [key, deletedAt] of this.tombstones) {
      // Only decimal resourceVersions are ordered; opaque ones are kept (compared for equality only).
      if (isDecimal(rv) && isDecimal(deletedAt) && isNewerResourceVersion(rv, deletedAt)) this.tombstones.delete(key);
    }
  }
}
