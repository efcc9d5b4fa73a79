// kubectl's last-applied-configuration annotation under server-side apply (apimachinery
// managedfields/internal/lastappliedupdater.go buildLastApplied and lastapplied.go SetLastApplied): the applied
// object without its own annotation, encoded by UnstructuredJSONScheme (encoding/json's Encoder: keys sorted,
// <, > and & escaped, a trailing newline), set only where the object already has one, and dropped when the
// annotations would pass TotalAnnotationSizeLimitB (256 KiB).
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';
import { LAST_APPLIED, withLastApplied } from '../../../templates/k8s-lease-api-server/src/managed/last-applied.js';

const live = (annotations: JsonObject | undefined): JsonObject => ({
  metadata: annotations === undefined ? { name: 'a' } : { name: 'a', annotations },
  spec: {},
});

describe('withLastApplied', () => {
  it('leaves an object without the annotation as it is', () => {
    const obj = live({ other: 'x' });
    expect(withLastApplied(obj, { spec: { holderIdentity: 'h' } })).toBe(obj);
    const bare = live(undefined);
    expect(withLastApplied(bare, { spec: {} })).toBe(bare);
  });

  it('writes the applied configuration, keys sorted and HTML escaped, without its own annotation', () => {
    const applied: JsonObject = {
      spec: { holderIdentity: '<a&b>' },
      metadata: { name: 'a', annotations: { [LAST_APPLIED]: 'old', keep: 'k' } },
      kind: 'Lease',
    };
    const updated = withLastApplied(live({ [LAST_APPLIED]: 'old', keep: 'k' }), applied);
    expect(updated['metadata']).toEqual({
      name: 'a',
      annotations: {
        keep: 'k',
        [LAST_APPLIED]:
          '{"kind":"Lease","metadata":{"annotations":{"keep":"k"},"name":"a"},"spec":{"holderIdentity":"\\u003ca\\u0026b\\u003e"}}\n',
      },
    });
  });

  it('drops the annotation when it would make the annotations larger than 256 KiB', () => {
    const updated = withLastApplied(live({ [LAST_APPLIED]: 'old' }), { spec: { big: 'x'.repeat(256 * 1024) } });
    expect(updated['metadata']).toEqual({ name: 'a', annotations: {} });
  });
});
