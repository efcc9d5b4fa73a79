import { describe, expect, it } from 'vitest';
import { emitRelease } from '../../../generator/emit/emit-release.js';
import { GeneratorError } from '../../../generator/errors.js';
import type { GroupVersionIr, ReleaseIr } from '../../../generator/ir/types.js';
import { leaseIr } from '../../helpers/project.js';

function emit(lease: GroupVersionIr): unknown {
  const ir: ReleaseIr = { release: lease.release, groupVersions: [lease] };
  try {
    emitRelease({ ir, documentPath: 'spec/openapi/test.json', contentHash: 'sha256:test' });
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('model completeness check', () => {
  const ir = leaseIr('1.35.0');

  it('passes for a real release', () => {
    expect(emit(ir)).toBeUndefined();
  });

  it('fails generation when a reachable schema is not emitted', () => {
    const error = emit({ ...ir, models: ir.models.filter((m) => m.name !== 'LeaseSpec') });
    expect(error).toBeInstanceOf(GeneratorError);
    expect((error as GeneratorError).code).toBe('incomplete-models');
    expect((error as GeneratorError).toLine()).toBe(
      'error: spec/openapi/test.json: model completeness check failed for 1.35.0: LeaseSpec emitted 0 times',
    );
  });

  it('fails generation when a schema would be emitted twice', () => {
    const spec = ir.models.find((m) => m.name === 'OwnerReference')!;
    const error = emit({ ...ir, models: [...ir.models, spec] });
    expect((error as GeneratorError).message).toContain('OwnerReference emitted 2 times');
  });
});
