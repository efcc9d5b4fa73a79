// Fields an applied configuration's schema does not declare, refused before anything else as structured-merge-diff's
// validation refuses them (typed/validate.go: ".path: field not declared in schema"; several errors listed sorted
// under "errors:", as ValidationErrors.Error prints them).
import { describe, expect, it } from 'vitest';
import { undeclaredFieldsError } from '../../../templates/k8s-lease-api-server/src/managed/undeclared-fields.js';
import { LEASE_UPDATER } from '../helpers/smd-harness.js';

const TYPE = LEASE_UPDATER.type;

describe('undeclaredFieldsError', () => {
  it('accepts declared fields, and any key of a map', () => {
    expect(
      undeclaredFieldsError(
        { metadata: { name: 'a', labels: { anything: 'x' } }, spec: { holderIdentity: 'h', leaseDurationSeconds: 1 } },
        TYPE,
      ),
    ).toBeUndefined();
  });

  it('names one undeclared field by its path', () => {
    expect(undeclaredFieldsError({ spec: { bogus: 1 } }, TYPE)).toBe('.spec.bogus: field not declared in schema');
  });

  it('lists several sorted, inside keyed lists too', () => {
    expect(
      undeclaredFieldsError(
        {
          spec: { zz: 1 },
          metadata: { ownerReferences: [{ uid: 'u', name: 'n', extra: true }], aa: 2 },
        },
        TYPE,
      ),
    ).toBe(
      [
        'errors:',
        '  .metadata.aa: field not declared in schema',
        '  .metadata.ownerReferences[uid="u"].extra: field not declared in schema',
        '  .spec.zz: field not declared in schema',
      ].join('\n'),
    );
  });
});
