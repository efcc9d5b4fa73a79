// The JSON helpers every module leans on: structural equality (reflect.DeepEqual on decoded JSON: key order
// does not matter, array order does), "__proto__" and "constructor" as plain data keys (Go has no prototype),
// and a nesting depth measured without recursion.
import { describe, expect, it } from 'vitest';
import {
  type JsonObject,
  type JsonValue,
  cloneJson,
  deepEqual,
  isJsonObject,
  nestingDepth,
  numberAt,
  objectAt,
  ownValue,
  parseJson,
  setOwn,
  stringAt,
  stringMapAt,
} from '../../templates/k8s-lease-api-server/src/json.js';

describe('deepEqual', () => {
  it.each<[JsonValue | undefined, JsonValue | undefined, boolean]>([
    [{ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }, true],
    [[1, 2], [2, 1], false],
    [{ a: 1 }, { a: 1, b: 2 }, false],
    [{ a: null }, { b: null }, false],
    [{}, [], false],
    [[], {}, false],
    [null, null, true],
    [null, {}, false],
    [undefined, null, false],
    [1, 1, true],
    [1, '1', false],
    [{ a: { b: { c: [true] } } }, { a: { b: { c: [true] } } }, true],
    [{ a: { b: { c: [true] } } }, { a: { b: { c: [false] } } }, false],
  ])('%j and %j → %s', (a, b, equal) => {
    expect(deepEqual(a, b)).toBe(equal);
  });
});

describe('own keys', () => {
  it('sets and reads "__proto__" as data, leaving the prototype alone', () => {
    const obj: JsonObject = {};
    setOwn(obj, '__proto__', { polluted: true });
    expect(Object.getPrototypeOf(obj)).toBe(Object.prototype);
    expect(Object.keys(obj)).toEqual(['__proto__']);
    expect(ownValue(obj, '__proto__')).toEqual({ polluted: true });
    expect(JSON.stringify(obj)).toBe('{"__proto__":{"polluted":true}}');
  });

  it('reads no inherited property', () => {
    expect(ownValue({}, 'constructor')).toBeUndefined();
    expect(ownValue({}, 'toString')).toBeUndefined();
    expect(ownValue({ constructor: 'x' }, 'constructor')).toBe('x');
  });
});

describe('typed accessors', () => {
  const obj: JsonObject = { s: 'x', n: 3, o: { k: 'v', skip: 1 }, a: [] };

  it('answer only for the type asked', () => {
    expect(stringAt(obj, 's')).toBe('x');
    expect(stringAt(obj, 'n')).toBeUndefined();
    expect(stringAt(undefined, 's')).toBeUndefined();
    expect(numberAt(obj, 'n')).toBe(3);
    expect(numberAt(obj, 's')).toBeUndefined();
    expect(objectAt(obj, 'o')).toEqual({ k: 'v', skip: 1 });
    expect(objectAt(obj, 'a')).toBeUndefined();
    expect(isJsonObject([])).toBe(false);
    expect(isJsonObject(null)).toBe(false);
  });

  it('keeps the string entries of a map and nothing else', () => {
    expect(stringMapAt(obj, 'o')).toEqual({ k: 'v' });
    expect(stringMapAt(obj, 'a')).toEqual({});
    expect(stringMapAt(undefined, 'o')).toEqual({});
  });
});

describe('cloneJson and parseJson', () => {
  it('clone deeply and parse as JSON.parse', () => {
    const original: JsonObject = { a: { b: [1] } };
    const copy = cloneJson(original);
    expect(copy).toEqual(original);
    expect(copy['a']).not.toBe(original['a']);
    expect(parseJson('{"a":[1,null]}')).toEqual({ a: [1, null] });
    expect(() => parseJson('{')).toThrow(SyntaxError);
  });
});

describe('nestingDepth', () => {
  it.each<[JsonValue, number]>([
    [1, 0],
    [null, 0],
    [{}, 1],
    [[], 1],
    [{ a: [1, { b: {} }] }, 4],
    [[[], [[[]]]], 4],
  ])('%j → %i', (value, depth) => {
    expect(nestingDepth(value)).toBe(depth);
  });

  it('measures a depth far past the call stack', () => {
    let value: JsonValue = 0;
    for (let i = 0; i < 200_000; i++) value = [value];
    expect(nestingDepth(value)).toBe(200_000);
  });
});
