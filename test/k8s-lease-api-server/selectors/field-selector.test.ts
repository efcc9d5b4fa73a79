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
