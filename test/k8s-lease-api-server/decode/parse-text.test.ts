// One way to read a JSON or YAML body, on the event loop and in the parse worker alike: the JSON parser's value,
// duplicate paths and number literals, or the YAML reader's value and go-yaml-worded duplicates; and the form the
// result crosses the worker boundary in (the value as JSON text, maps as entry lists).
import { describe, expect, it } from 'vitest';
import { parseTextSync, toWire } from '../../../templates/k8s-lease-api-server/src/decode/parse-text.js';

describe('parseTextSync', () => {
  it('reads JSON with its duplicates and number literals', () => {
    expect(parseTextSync('{"a":1,"a":2.50,"b":"x"}', 'json')).toEqual({
      ok: true,
      value: { value: { a: 2.5, b: 'x' }, duplicates: ['a'], numbers: new Map([['a', '2.50']]) },
    });
  });

  it('reads YAML with its duplicates worded as go-yaml', () => {
    expect(parseTextSync('a: 1\na: 2\n', 'yaml')).toEqual({
      ok: true,
      value: { value: { a: 2 }, duplicates: ['a'], duplicateLines: ['line 2: key "a" already set in map'] },
    });
  });

  it('passes the parser errors through', () => {
    expect(parseTextSync('{', 'json')).toEqual({ ok: false, error: 'unexpected end of JSON input' });
    expect(parseTextSync('a: !custom 1', 'yaml').ok).toBe(false);
  });
});

describe('toWire', () => {
  it('sends the value as JSON text and the number literals as entries', () => {
    expect(toWire(parseTextSync('{"n":1.0}', 'json'))).toEqual({
      ok: true,
      json: '{"n":1}',
      duplicates: [],
      numbers: [['n', '1.0']],
    });
    expect(toWire(parseTextSync('a: 1\na: 2\n', 'yaml'))).toEqual({
      ok: true,
      json: '{"a":2}',
      duplicates: ['a'],
      duplicateLines: ['line 2: key "a" already set in map'],
    });
    expect(toWire({ ok: false, error: 'e' })).toEqual({ ok: false, error: 'e' });
  });
});
