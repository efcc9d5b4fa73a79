// An ordered map from storage key to object, kept as a list of sorted chunks with copy-on-write
// freezing: an insert or delete costs O(log N + CHUNK), not the O(N) of one sorted array, and a
// point-in-time view costs O(N / CHUNK) — the chunks are shared until a later write copies the one it
// touches. It plays the part of the watch cache's B-tree with its cheap clones
// (k8s.io/apiserver/pkg/storage/cacher/store btree store, snapshotter).
import type { JsonObject } from '../json.js';

/** Keys above this split a chunk in two; so every chunk holds between 1 and CHUNK_MAX keys. */
const CHUNK_MAX = 512;

interface Chunk {
  readonly keys: string[];
  readonly values: JsonObject[];
  /** A frozen chunk belongs to at least one view and is never written again: writers copy it. */
  frozen: boolean;
}

/** A frozen, immutable point-in-time view of the entries. */
export interface FrozenEntries {
  readonly chunks: readonly Chunk[];
  readonly size: number;
}

/** Where a key is, or would be inserted: chunk index and offset within it. */
interface Position {
  chunk: number;
  offset: number;
}

function lowerBoundIn(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] ?? '') < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first chunk whose last key is >= key (chunks.length when key is past every key). */
function chunkFor(chunks: readonly Chunk[], key: string): number {
  let lo = 0;
  let hi = chunks.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const keys = chunks[mid]?.keys ?? [];
    if ((keys[keys.length - 1] ?? '') < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The position of the first key >= key. */
export function positionOf(chunks: readonly Chunk[], key: string): Position {
  const chunk = chunkFor(chunks, key);
  return { chunk, offset: chunk < chunks.length ? lowerBoundIn(chunks[chunk]?.keys ?? [], key) : 0 };
}

export function getIn(chunks: readonly Chunk[], key: string): JsonObject | undefined {
  const { chunk, offset } = positionOf(chunks, key);
  const found = chunks[chunk];
  return found !== undefined && found.keys[offset] === key ? found.values[offset] : undefined;
}

/**
 * Calls visit for each entry with from <= key < to, in key order, until it returns false (declining
 * that entry). Returns whether it stopped so, i.e. an entry in range is left.
 */
export function scanIn(
  chunks: readonly Chunk[],
  from: string,
  to: string | undefined,
  visit: (key: string, value: JsonObject) => boolean,
): boolean {
  let { chunk, offset } = positionOf(chunks, from);
  for (; chunk < chunks.length; chunk++, offset = 0) {
    const { keys, values } = chunks[chunk] as Chunk;
    for (; offset < keys.length; offset++) {
      const key = keys[offset] as string;
      if (to !== undefined && key >= to) return false;
      if (!visit(key, values[offset] as JsonObject)) return true;
    }
  }
  return false;
}

/** How many keys k satisfy from <= k < to (to undefined: no upper bound). O(log N + N / CHUNK_MAX). */
export function countIn(chunks: readonly Chunk[], from: string, to: string | undefined): number {
  if (to !== undefined && from >= to) return 0;
  const start = positionOf(chunks, from);
  const end = to === undefined ? { chunk: chunks.length, offset: 0 } : positionOf(chunks, to);
  let count = end.offset - start.offset;
  for (let i = start.chunk; i < end.chunk; i++) count += chunks[i]?.keys.length ?? 0;
  return count;
}

export class SortedChunks {
  private chunks: Chunk[];
  private count: number;

  constructor(from?: FrozenEntries) {
    this.chunks = from === undefined ? [] : [...from.chunks];
    this.count = from?.size ?? 0;
  }

  get size(): number {
    return this.count;
  }

  /** Inserts or replaces. */
  set(key: string, value: JsonObject): void {
    let index = chunkFor(this.chunks, key);
    if (index === this.chunks.length) {
      if (index === 0) {
        this.chunks.push({ keys: [key], values: [value], frozen: false });
        this.count++;
        return;
      }
      index--;
    }
    const chunk = this.writable(index);
    const offset = lowerBoundIn(chunk.keys, key);
    if (chunk.keys[offset] === key) {
      chunk.values[offset] = value;
      return;
    }
    chunk.keys.splice(offset, 0, key);
    chunk.values.splice(offset, 0, value);
    this.count++;
    if (chunk.keys.length > CHUNK_MAX) {
      const half = chunk.keys.length >>> 1;
      const tail: Chunk = { keys: chunk.keys.splice(half), values: chunk.values.splice(half), frozen: false };
      this.chunks.splice(index + 1, 0, tail);
    }
  }

  delete(key: string): boolean {
    const index = chunkFor(this.chunks, key);
    const found = this.chunks[index];
    if (found === undefined) return false;
    const offset = lowerBoundIn(found.keys, key);
    if (found.keys[offset] !== key) return false;
    if (found.keys.length === 1) {
      this.chunks.splice(index, 1);
    } else {
      const chunk = this.writable(index);
      chunk.keys.splice(offset, 1);
      chunk.values.splice(offset, 1);
      this.mergeSmall(index);
    }
    this.count--;
    return true;
  }

  /**
   * Joins the chunk a delete shrank with a neighbour when both fit in half a chunk, so deletes do not
   * leave a long list of tiny chunks behind (which would make freezing cost O(N)).
   */
  private mergeSmall(at: number): void {
    const fits = (i: number): boolean =>
      (this.chunks[i]?.keys.length ?? CHUNK_MAX) + (this.chunks[i + 1]?.keys.length ?? CHUNK_MAX) <= CHUNK_MAX / 2;
    const index = fits(at) ? at : fits(at - 1) ? at - 1 : -1;
    if (index < 0) return;
    const chunk = this.chunks[index] as Chunk;
    const next = this.chunks[index + 1] as Chunk;
    const joined: Chunk = {
      keys: [...chunk.keys, ...next.keys],
      values: [...chunk.values, ...next.values],
      frozen: false,
    };
    this.chunks.splice(index, 2, joined);
  }

  /**
   * A view of the entries as they are now. Marks every chunk frozen (later writes copy what they
   * touch), so this costs O(N / CHUNK_MAX) and later writes O(CHUNK_MAX) more the first time they
   * touch each chunk.
   */
  freeze(): FrozenEntries {
    for (const chunk of this.chunks) chunk.frozen = true;
    return { chunks: [...this.chunks], size: this.count };
  }

  private writable(index: number): Chunk {
    const chunk = this.chunks[index] as Chunk;
    if (!chunk.frozen) return chunk;
    const copy: Chunk = { keys: [...chunk.keys], values: [...chunk.values], frozen: false };
    this.chunks[index] = copy;
    return copy;
  }
}
