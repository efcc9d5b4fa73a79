// The per-line decision of a watch connection, a pure function tested directly, as state.test.ts tests the
// machine. client-go's RetryWatcher (k8s.io/client-go/tools/watch/retrywatcher.go, doReceive) moves its
// resume point to every event's resourceVersion, bookmarks included; its reflector
// (k8s.io/client-go/tools/cache/reflector.go, handleAnyWatch) ends a sendInitialEvents watch's initial events
// at the bookmark annotated k8s.io/initial-events-end. Here an event moves the resume point only on a stream
// known to be in resourceVersion order, and what a resume replays is dropped instead of handed out again.
import { describe, expect, it } from 'vitest';
import { INITIAL_EVENTS_END_ANNOTATION } from '../../../../templates/k8s-lease-client/src/runtime/watch/event-shape.js';
import type { RawEvent } from '../../../../templates/k8s-lease-client/src/runtime/watch/event-shape.js';
import {
  decideLine,
  initialLineState,
  isOrderedFrom,
} from '../../../../templates/k8s-lease-client/src/runtime/watch/line-decision.js';
import type {
  LineDecision,
  LineState,
} from '../../../../templates/k8s-lease-client/src/runtime/watch/line-decision.js';

/** From a concrete resourceVersion: in resourceVersion order. */
const ordered = (rv = '10'): LineState => ({ rv, ordered: true, collecting: false });
/** From "0" or none, or after a sendInitialEvents connection's initial events: in no particular order. */
const unordered = (rv: string | undefined): LineState => ({ rv, ordered: false, collecting: false });
/** A sendInitialEvents connection before its initial-events-end bookmark. */
const collecting: LineState = { rv: undefined, ordered: false, collecting: true };

const event = (type: RawEvent['type'], resourceVersion?: string, annotations?: Record<string, string>): RawEvent => ({
  type,
  object: { metadata: { name: 'a', namespace: 'n', resourceVersion, annotations } },
});
const initialEventsEnd = (resourceVersion = '20'): RawEvent =>
  event('BOOKMARK', resourceVersion, { [INITIAL_EVENTS_END_ANNOTATION]: 'true' });
const status: RawEvent = { type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } };

const decision = (
  action: LineDecision['action'],
  { advance = false, progress = false }: { advance?: boolean; progress?: boolean } = {},
): LineDecision => ({ action, advance, progress });
const handOut = decision('handOut', { progress: true });
const advancing = decision('handOut', { advance: true, progress: true });
const staleBookmark = decision('handOut');
const ifUnseen = decision('handOutIfUnseen', { progress: true });
const ifUnseenAdvancing = decision('handOutIfUnseen', { advance: true, progress: true });
const drop = decision('drop');
const fail = decision('fail');
const collect = decision('collect', { progress: true });
const endInitialEvents = decision('endInitialEvents', { progress: true });

interface Case {
  name: string;
  state: LineState;
  event: RawEvent;
  expected: LineDecision;
}

const cases: Case[] = [
  // An in-stream ERROR ends the connection, whatever the reader is doing.
  { name: 'an ERROR ends the connection', state: ordered(), event: status, expected: fail },
  {
    name: 'an ERROR among the initial events ends the connection too',
    state: collecting,
    event: status,
    expected: fail,
  },

  // A sendInitialEvents connection collects until its initial-events-end bookmark.
  { name: 'an initial ADDED is collected', state: collecting, event: event('ADDED', '5'), expected: collect },
  { name: 'an initial MODIFIED is collected', state: collecting, event: event('MODIFIED', '6'), expected: collect },
  {
    name: 'an initial DELETED is collected (it takes its object out)',
    state: collecting,
    event: event('DELETED', '7'),
    expected: collect,
  },
  {
    name: 'an initial event without a resourceVersion is collected',
    state: collecting,
    event: event('ADDED'),
    expected: collect,
  },
  {
    name: 'a progress bookmark among the initial events carries nothing',
    state: collecting,
    event: event('BOOKMARK', '8'),
    expected: drop,
  },
  {
    name: 'the initial-events-end bookmark ends them, and is progress',
    state: collecting,
    event: initialEventsEnd(),
    expected: endInitialEvents,
  },

  // Bookmarks are handed out; they move the resume point when newer, on any stream.
  {
    name: 'a newer bookmark moves the resume point',
    state: ordered('10'),
    event: event('BOOKMARK', '11'),
    expected: advancing,
  },
  {
    name: 'a newer bookmark moves it on an unordered stream too',
    state: unordered('10'),
    event: event('BOOKMARK', '11'),
    expected: advancing,
  },
  {
    name: 'a bookmark moves a resume point there was none of',
    state: unordered(undefined),
    event: event('BOOKMARK', '3'),
    expected: advancing,
  },
  {
    name: 'a bookmark compares as numbers: 100 is newer than 99',
    state: ordered('99'),
    event: event('BOOKMARK', '100'),
    expected: advancing,
  },
  {
    name: 'a bookmark at the resume point is handed out, and is no progress',
    state: ordered('10'),
    event: event('BOOKMARK', '10'),
    expected: staleBookmark,
  },
  { name: 'an older bookmark neither', state: ordered('10'), event: event('BOOKMARK', '9'), expected: staleBookmark },
  {
    name: 'a bookmark without a resourceVersion neither',
    state: ordered('10'),
    event: event('BOOKMARK'),
    expected: staleBookmark,
  },
  {
    name: 'an opaque resourceVersion only compares for equality: a different one is newer',
    state: ordered('abc'),
    event: event('BOOKMARK', 'abd'),
    expected: advancing,
  },
  {
    name: 'once the initial events ended, their end marker is a bookmark like any other',
    state: unordered('20'),
    event: initialEventsEnd('21'),
    expected: advancing,
  },

  // Ordered stream (from a concrete resourceVersion): the watermark drops replays at a resume boundary.
  {
    name: 'ordered: a newer event is handed out and moves the watermark',
    state: ordered('10'),
    event: event('MODIFIED', '11'),
    expected: advancing,
  },
  {
    name: 'ordered: the event at the resume point is a replay',
    state: ordered('10'),
    event: event('MODIFIED', '10'),
    expected: drop,
  },
  { name: 'ordered: an older event is a replay', state: ordered('10'), event: event('ADDED', '9'), expected: drop },
  {
    name: 'ordered: a DELETED is ordered like any event',
    state: ordered('10'),
    event: event('DELETED', '12'),
    expected: advancing,
  },
  {
    name: 'ordered: numbers, not strings: 10 is newer than 9',
    state: ordered('9'),
    event: event('MODIFIED', '10'),
    expected: advancing,
  },
  {
    name: 'ordered: leading zeros compare by value, 010 is not newer than 10',
    state: ordered('10'),
    event: event('MODIFIED', '010'),
    expected: drop,
  },
  {
    name: 'ordered: an event without a resourceVersion cannot be placed, so it is handed out',
    state: ordered('10'),
    event: event('MODIFIED'),
    expected: handOut,
  },
  {
    name: 'ordered: an opaque resourceVersion goes to the deduplicator, and moves the resume point when different',
    state: ordered('10'),
    event: event('MODIFIED', 'x1'),
    expected: ifUnseenAdvancing,
  },
  {
    name: 'ordered: from an opaque resume point, an equal one does not move it',
    state: ordered('x1'),
    event: event('MODIFIED', 'x1'),
    expected: ifUnseen,
  },

  // Unordered stream (synthetic ADDED events from "0", or after initial events): only the deduplicator decides.
  {
    name: 'unordered: a newer event goes to the deduplicator and does not move the resume point',
    state: unordered('10'),
    event: event('ADDED', '50'),
    expected: ifUnseen,
  },
  {
    name: 'unordered: an older event may be an object not yet seen, so it goes to the deduplicator',
    state: unordered('10'),
    event: event('ADDED', '3'),
    expected: ifUnseen,
  },
  {
    name: 'unordered: without a resume point the same',
    state: unordered(undefined),
    event: event('DELETED', '3'),
    expected: ifUnseen,
  },
  {
    name: 'unordered: an event without a resourceVersion is handed out',
    state: unordered('10'),
    event: event('ADDED'),
    expected: handOut,
  },
];

describe('decideLine: what one line of a connection means', () => {
  it.each(cases)('$name', ({ state, event, expected }) => {
    const before = structuredClone(state);
    expect(decideLine(state, event)).toEqual(expected);
    // Pure: the reader's state is read, never written.
    expect(state).toEqual(before);
  });

  it('answers with shared decisions: deciding allocates nothing per event on a busy watch', () => {
    for (const { state, event } of cases) expect(decideLine(state, event)).toBe(decideLine(state, event));
    expect(decideLine(ordered('10'), event('MODIFIED', '11'))).toBe(decideLine(unordered('1'), event('BOOKMARK', '2')));
  });
});

describe('decideLine, carried out line by line as the reader does', () => {
  /** Applies the decisions' resume-point moves; returns the actions and the resume point reached. */
  function read(state: LineState, events: RawEvent[]): { actions: string[]; rv: string | undefined } {
    const actions: string[] = [];
    let rv = state.rv;
    for (const e of events) {
      const decided = decideLine({ ...state, rv }, e);
      if (decided.advance) rv = (e.object as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
      actions.push(decided.action);
    }
    return { actions, rv };
  }

  it('a resume from 10 that replays the boundary: the replays are dropped, the rest handed out in order', () => {
    expect(
      read(ordered('10'), [
        event('MODIFIED', '9'),
        event('MODIFIED', '10'),
        event('MODIFIED', '11'),
        event('MODIFIED', '11'),
        event('BOOKMARK', '15'),
        event('ADDED', '14'),
        event('ADDED', '16'),
      ]),
    ).toEqual({ actions: ['drop', 'drop', 'handOut', 'drop', 'handOut', 'drop', 'handOut'], rv: '16' });
  });

  it('a watch from "0": the synthetic ADDED events, in any order, leave the resume point to the bookmarks', () => {
    expect(
      read(initialLineState('0', false), [event('ADDED', '30'), event('ADDED', '12'), event('BOOKMARK', '31')]),
    ).toEqual({ actions: ['handOutIfUnseen', 'handOutIfUnseen', 'handOut'], rv: '31' });
  });
});

describe('initialLineState: the reader as a connection starts', () => {
  it.each<[string, string | undefined, boolean, LineState]>([
    ['from a concrete resourceVersion: ordered', '100', false, { rv: '100', ordered: true, collecting: false }],
    ['from an opaque one: ordered as well', 'abc', false, { rv: 'abc', ordered: true, collecting: false }],
    ['from "0": synthetic events first, unordered', '0', false, { rv: '0', ordered: false, collecting: false }],
    ['from "": unordered', '', false, { rv: '', ordered: false, collecting: false }],
    ['from none: unordered', undefined, false, { rv: undefined, ordered: false, collecting: false }],
    ['sendInitialEvents: collecting, unordered', undefined, true, { rv: undefined, ordered: false, collecting: true }],
  ])('%s', (_name, rv, streaming, expected) => {
    expect(initialLineState(rv, streaming)).toEqual(expected);
  });
});

describe('isOrderedFrom: a watch from here is checked by watermark, so the deduplicator need not remember a sync', () => {
  it.each([
    ['100', true],
    ['0', false],
    ['', false],
    ['abc', false],
  ])('%s: %s', (rv, expected) => {
    expect(isOrderedFrom(rv)).toBe(expected);
  });
});
