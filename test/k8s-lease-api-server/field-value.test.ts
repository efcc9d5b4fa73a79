// apimachinery pkg/util/validation/field/errors.go Error.ErrorBody before and after 1.34's "Nicer value
// rendering in API errors" (errors_test.go TestErrorFormatting): %v and %q alike in both, %#v up to 1.33 and
// json.Marshal from 1.34 for everything else.
import { describe, expect, it } from 'vitest';
import type { BadValue, StyledValue, ValueStyle } from '../../templates/k8s-lease-api-server/src/field-value.js';
import {
  goJsonString,
  goStringSlice,
  renderBadValue,
  valueStyleFor,
} from '../../templates/k8s-lease-api-server/src/field-value.js';

type Unstyled = StyledValue extends infer V ? (V extends StyledValue ? Omit<V, 'style'> : never) : never;
const styled = (style: ValueStyle, value: Unstyled): BadValue => ({ ...value, style }) as StyledValue;

describe('valueStyleFor', () => {
  it('is Go syntax up to 1.33 and JSON from 1.34', () => {
    expect(['1.29.0', '1.31.1', '1.33.1', 'v1.33'].map(valueStyleFor)).toEqual([
      'go-syntax',
      'go-syntax',
      'go-syntax',
      'go-syntax',
    ]);
    expect(['1.34.0', '1.35.0', '1.36.0', 'v1.40.2'].map(valueStyleFor)).toEqual(['json', 'json', 'json', 'json']);
  });
});

describe('renderBadValue', () => {
  it('prints ints and bools with %v and strings with %q (strconv.Quote) in every release', () => {
    expect(renderBadValue(0)).toBe('0');
    expect(renderBadValue(-42)).toBe('-42');
    expect(renderBadValue(false)).toBe('false');
    expect(renderBadValue('a"b\n')).toBe('"a\\"b\\n"');
    expect(renderBadValue('a\u0001\u007f<é')).toBe('"a\\x01\\x7f<é"');
  });

  it.each<[Unstyled, string, string]>([
    [{ goType: 'uint64', value: 0 }, '0x0', '0'],
    [{ goType: 'uint64', value: 255 }, '0xff', '255'],
    [{ goType: '[]string', items: ['Bogus'] }, '[]string{"Bogus"}', '["Bogus"]'],
    [{ goType: '[]string', items: [] }, '[]string{}', '[]'],
    [{ goType: '[]string', items: ['a<b', 'c\u0001'] }, '[]string{"a<b", "c\\x01"}', '["a\\u003cb","c\\u0001"]'],
    [{ goType: 'types.UID', uid: 'a&b' }, '"a&b"', '"a\\u0026b"'],
  ])('%j: %s up to 1.33, %s from 1.34', (value, goSyntax, json) => {
    expect(renderBadValue(styled('go-syntax', value))).toBe(goSyntax);
    expect(renderBadValue(styled('json', value))).toBe(json);
  });

  it('renders an owner reference as json.Marshal does: struct order, the bools only when set', () => {
    const owner = { uid: 'u', controller: true, kind: 'Event', name: 'e', apiVersion: 'v1' };
    const json = '{"apiVersion":"v1","kind":"Event","name":"e","uid":"u","controller":true}';
    expect(renderBadValue(styled('json', { goType: 'OwnerReference', owner }))).toBe(json);
    expect(renderBadValue(styled('json', { goType: '[]OwnerReference', owners: [owner, { name: 'x' }] }))).toBe(
      `[${json},{"apiVersion":"","kind":"","name":"x","uid":""}]`,
    );
  });
});

describe('goJsonString and goStringSlice', () => {
  it('escape as encoding/json and fmt %#v do', () => {
    expect(goJsonString('<a>&\u2028')).toBe('"\\u003ca\\u003e\\u0026\\u2028"');
    expect(goStringSlice(['b', 'a'])).toBe('[]string{"b", "a"}');
  });
});
