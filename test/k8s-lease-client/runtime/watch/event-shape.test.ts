// Every decoded line passes these checks before the watch takes it for an event: client-go's decoder
// (k8s.io/client-go/rest/watch/decoder.go, Decode) likewise refuses any type but ADDED, MODIFIED, DELETED,
// ERROR and BOOKMARK ("got invalid watch event type"), and its reflector ends the initial events of a
// sendInitialEvents watch at the bookmark annotated k8s.io/initial-events-end: "true"
// (k8s.io/client-go/tools/cache/reflector.go, handleAnyWatch).
import { describe, expect, it } from 'vitest';
import {
  INITIAL_EVENTS_END_ANNOTATION,
  isInitialEventsEnd,
  toEvent,
} from '../../../../templates/k8s-lease-client/src/runtime/watch/event-shape.js';
import { WatchDecodeError } from '../../../../templates/k8s-lease-client/src/runtime/watch/ndjson.js';

const lease = { metadata: { name: 'a', resourceVersion: '5' } };

/** What `check` throws; fails the test when it returns instead. */
function thrownBy(check: () => unknown): unknown {
  try {
    check();
  } catch (error) {
    return error;
  }
  throw new Error('expected it to throw');
}

describe('toEvent: a decoded line with the shape of a watch event is taken as it is', () => {
  it.each(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR'])('%s', (type) => {
    const line = { type, object: lease };
    // The very value decoded, not a copy: a busy watch hands millions of them out.
    expect(toEvent(line)).toBe(line);
  });

  it('keeps fields beyond type and object', () => {
    const line = { type: 'ADDED', object: {}, extra: 1 };
    expect(toEvent(line)).toBe(line);
  });
});

describe('toEvent: anything else ends the watch with a WatchDecodeError quoting it', () => {
  it.each<[string, unknown, string]>([
    [
      'an unknown type',
      { type: 'SYNC', object: lease },
      '{"type":"SYNC","object":{"metadata":{"name":"a","resourceVersion":"5"}}}',
    ],
    [
      'a type in the wrong case',
      { type: 'added', object: lease },
      '{"type":"added","object":{"metadata":{"name":"a","resourceVersion":"5"}}}',
    ],
    ['no type', { object: lease }, '{"object":{"metadata":{"name":"a","resourceVersion":"5"}}}'],
    [
      'a type that is not a string',
      { type: 1, object: lease },
      '{"type":1,"object":{"metadata":{"name":"a","resourceVersion":"5"}}}',
    ],
    ['no object', { type: 'ADDED' }, '{"type":"ADDED"}'],
    ['a null object', { type: 'ADDED', object: null }, '{"type":"ADDED","object":null}'],
    ['an object that is a string', { type: 'ADDED', object: 'a' }, '{"type":"ADDED","object":"a"}'],
    [
      'an array',
      [{ type: 'ADDED', object: lease }],
      '[{"type":"ADDED","object":{"metadata":{"name":"a","resourceVersion":"5"}}}]',
    ],
    ['a string', 'ADDED', '"ADDED"'],
    ['a number', 42, '42'],
    ['null', null, 'null'],
  ])('%s', (_name, value, text) => {
    const error = thrownBy(() => toEvent(value));
    expect(error).toBeInstanceOf(WatchDecodeError);
    expect(error).toMatchObject({
      excerpt: text,
      line: 0,
      truncated: false,
      message: `watch stream: not a watch event ({"type":…,"object":{…}}): ${text}`,
    });
  });
});

describe('isInitialEventsEnd: the bookmark that ends the initial events', () => {
  const bookmark = (metadata: unknown): unknown => ({ kind: 'Lease', metadata });

  it('names the annotation kube-apiserver sets', () => {
    expect(INITIAL_EVENTS_END_ANNOTATION).toBe('k8s.io/initial-events-end');
  });

  it.each<[string, unknown, boolean]>([
    [
      'annotated "true"',
      bookmark({ resourceVersion: '9', annotations: { [INITIAL_EVENTS_END_ANNOTATION]: 'true' } }),
      true,
    ],
    ['annotated otherwise', bookmark({ annotations: { [INITIAL_EVENTS_END_ANNOTATION]: 'false' } }), false],
    [
      'annotated with a boolean, not the string',
      bookmark({ annotations: { [INITIAL_EVENTS_END_ANNOTATION]: true } }),
      false,
    ],
    ['other annotations only', bookmark({ annotations: { 'k8s.io/other': 'true' } }), false],
    ['no annotations', bookmark({ resourceVersion: '9' }), false],
    ['null annotations', bookmark({ annotations: null }), false],
    ['annotations that are a string', bookmark({ annotations: 'k8s.io/initial-events-end' }), false],
    ['no metadata', {}, false],
    ['null metadata', bookmark(null), false],
  ])('%s', (_name, object, expected) => {
    expect(isInitialEventsEnd(object)).toBe(expected);
  });
});
