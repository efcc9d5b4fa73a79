import { describe, expect, it } from 'vitest';
import { Deduplicator } from '../../../../templates/k8s-lease-client/src/runtime/watch/deduplicator.js';
import type { KubeObjectLike } from '../../../../templates/k8s-lease-client/src/runtime/watch/resource-version.js';

const at = (name: string, resourceVersion: string | undefined, namespace?: string): KubeObjectLike => ({
  metadata: { name, namespace, resourceVersion },
});

/** One step of a scenario: accept `object` (as a DELETED when `deleted`), expecting `accepted`. */
type Step = readonly [object: KubeObjectLike, deleted: boolean, accepted: boolean];

describe('Deduplicator.accept: an object is yielded only when newer than what was yielded for its key', () => {
  it.each<{ name: string; steps: Step[] }>([
    {
      name: 'first sight, then only newer resourceVersions',
      steps: [
        [at('a', '5'), false, true],
        [at('a', '5'), false, false],
        [at('a', '4'), false, false],
        [at('a', '6'), false, true],
      ],
    },
    {
      name: 'decimal resourceVersions compare as numbers at any length',
      steps: [
        [at('a', '9'), false, true],
        [at('a', '10'), false, true],
        [at('a', '9'), false, false],
        [at('a', '123456789012345678901234567890'), false, true],
      ],
    },
    {
      name: 'keys are namespace/name: the same name in another namespace is another object',
      steps: [
        [at('a', '5', 'x'), false, true],
        [at('a', '5', 'y'), false, true],
        [at('a', '5'), false, true],
        [at('a', '5', 'x'), false, false],
      ],
    },
    {
      name: 'a deletion is remembered: its replay, and older events of the object, are dropped',
      steps: [
        [at('a', '5'), false, true],
        [at('a', '7'), true, true],
        [at('a', '7'), true, false],
        [at('a', '6'), false, false],
        [at('a', '8'), false, true],
      ],
    },
    {
      name: 'opaque resourceVersions only compare for equality: any other value counts as newer',
      steps: [
        [at('a', 'x1'), false, true],
        [at('a', 'x1'), false, false],
        [at('a', 'w0'), false, true],
      ],
    },
    {
      name: 'without a resourceVersion or a name nothing is known, so everything passes',
      steps: [
        [at('a', undefined), false, true],
        [at('a', undefined), false, true],
        [{ metadata: { resourceVersion: '5' } }, false, true],
        [{ metadata: { resourceVersion: '5' } }, false, true],
        [{}, false, true],
      ],
    },
  ])('$name', ({ steps }) => {
    const seen = new Deduplicator();
    expect(steps.map(([object, deleted]) => seen.accept(object, deleted))).toEqual(steps.map((s) => s[2]));
  });
});

describe('Deduplicator.replace: a complete state (LIST or initial events) starts the memory over', () => {
  it('remembers the objects of an unwatermarked state, so their replays are dropped', () => {
    const seen = new Deduplicator();
    seen.replace([at('a', '5'), at('b', '6')], false);
    expect([seen.accept(at('a', '5')), seen.accept(at('b', '6')), seen.accept(at('b', '7'))]).toEqual([
      false,
      false,
      true,
    ]);
  });

  it('keeps nothing of a watermarked state: the ordered stream drops its replays by resourceVersion instead', () => {
    const seen = new Deduplicator();
    seen.replace([at('a', '5')], true);
    expect(seen.accept(at('a', '5'))).toBe(true);
  });

  it('forgets what was yielded before, deletions included', () => {
    const seen = new Deduplicator();
    seen.accept(at('a', '9'));
    seen.accept(at('b', '9'), true);
    seen.replace([at('c', '3')], false);
    expect([seen.accept(at('a', '4')), seen.accept(at('b', '4')), seen.accept(at('c', '3'))]).toEqual([
      true,
      true,
      false,
    ]);
  });
});

describe('Deduplicator.forgetTombstonesBefore: a watch from rv cannot replay a deletion older than rv', () => {
  it.each<{ name: string; deletedAt: string; resumeAt: string | undefined; forgotten: boolean }>([
    { name: 'a deletion before the resume point is forgotten', deletedAt: '5', resumeAt: '6', forgotten: true },
    { name: 'one at the resume point is kept', deletedAt: '5', resumeAt: '5', forgotten: false },
    { name: 'one after it is kept', deletedAt: '7', resumeAt: '6', forgotten: false },
    { name: 'opaque resourceVersions are never ordered, so kept', deletedAt: 'x5', resumeAt: '6', forgotten: false },
    { name: 'an opaque resume point orders nothing', deletedAt: '5', resumeAt: 'x6', forgotten: false },
    { name: 'no resume point forgets nothing', deletedAt: '5', resumeAt: undefined, forgotten: false },
  ])('$name', ({ deletedAt, resumeAt, forgotten }) => {
    const seen = new Deduplicator();
    seen.accept(at('a', deletedAt), true);
    seen.forgetTombstonesBefore(resumeAt);
    // A forgotten deletion no longer drops its own replay.
    expect(seen.accept(at('a', deletedAt), true)).toBe(forgotten);
  });

  it('keeps live objects: only deletions are forgotten', () => {
    const seen = new Deduplicator();
    seen.accept(at('a', '5'));
    seen.forgetTombstonesBefore('9');
    expect(seen.accept(at('a', '5'))).toBe(false);
  });
});
