// A read-only view of the store at one resourceVersion, shared by every LIST page served at it.
import type { JsonObject } from '../json.js';
import type { FrozenEntries } from './sorted-chunks.js';
import { countIn, getIn, scanIn } from './sorted-chunks.js';

export class Snapshot {
  constructor(
    readonly rv: number,
    /** The entries; a rebuild at an older resourceVersion starts from them. */
    readonly frozen: FrozenEntries,
  ) {}

  get size(): number {
    return this.frozen.size;
  }

  get(key: string): JsonObject | undefined {
    return getIn(this.frozen.chunks, key);
  }

  /**
   * Visits entries with from <= key < to in key order until visit returns false (declining that
   * entry); returns whether it stopped so, i.e. an entry in the range is left.
   */
  scan(from: string, to: string | undefined, visit: (key: string, value: JsonObject) => boolean): boolean {
    return scanIn(this.frozen.chunks, from, to, visit);
  }

  /** How many keys lie in [from, to). */
  count(from: string, to: string | undefined): number {
    return countIn(this.frozen.chunks, from, to);
  }

  /** The objects of one namespace (every object without one), in key order. */
  objectsIn(namespace: string | undefined): JsonObject[] {
    const objects: JsonObject[] = [];
    const { from, to } = namespaceRange(namespace);
    this.scan(from, to, (_key, value) => {
      objects.push(value);
      return true;
    });
    return objects;
  }

  /** Every entry in key order. */
  forEach(visit: (key: string, value: JsonObject) => void): void {
    this.scan('', undefined, (key, value) => {
      visit(key, value);
      return true;
    });
  }
}

/**
 * The keys ("namespace/name") of one namespace: from its prefix up to the first key past it ('0'
 * follows '/'); the whole store for no namespace.
 */
export function namespaceRange(namespace: string | undefined): { from: string; to: string | undefined } {
  return namespace === undefined ? { from: '', to: undefined } : { from: `${namespace}/`, to: `${namespace}0` };
}
