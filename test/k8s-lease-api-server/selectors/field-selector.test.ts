import { describe, expect, it } from 'vitest';
import {
  leaseFieldRequirements,
  parseFieldSelector,
} from '../../../templates/k8s-lease-api-server/src/selectors/field-selector.js';

describe('field selector grammar', () => {
  it('parses field selectors with escapes and rejects unsupported fields', () => {
    const parsed = parseFieldSelector('metadata.name=a\\,b,metadata.namespace!=kube-system');
    expect(parsed.ok && parsed.value).toEqual([
      { field: 'metadata.name', op: 'eq', value: 'a,b' },
      { field: 'metadata.namespace', op: 'neq', value: 'kube-system' },
    ]);
    const terms = parseFieldSelector('spec.holderIdentity=x');
    const bad = terms.ok ? leaseFieldRequirements(terms.value) : terms;
    expect(bad.ok ? '' : bad.error).toBe(
      '"spec.holderIdentity" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
  });
});

// fields.ParseSelector sorts the terms (sort.StringSlice: Go's byte order) before parsing them, so the error names
// the first bad term in UTF-8 byte order: U+FFFF (EF BF BF) before U+1F600 (F0 9F 98 80), where UTF-16 order
// would put the surrogate pair first.
describe('field selector term order', () => {
  it('reports the first bad term in UTF-8 byte order', () => {
    expect(parseFieldSelector('\u{1F600},\uFFFF')).toEqual({
      ok: false,
      error: "invalid selector: '\u{1F600},\uFFFF'; can't understand '\uFFFF'",
    });
  });

  it('parses 100,000 terms in byte order', () => {
    const terms = Array.from({ length: 100_000 }, (_, i) => `metadata.name=n${99_999 - i}`);
    const parsed = parseFieldSelector(terms.join(','));
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.value.slice(0, 3).map((t) => t.value)).toEqual(['n0', 'n1', 'n10']);
  });
});
