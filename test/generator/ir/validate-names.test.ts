import { describe, expect, it } from 'vitest';
import { buildReleaseIr } from '../../../generator/ir/build-release-ir.js';
import { GeneratorError } from '../../../generator/errors.js';
import { releaseDocument } from '../../helpers/project.js';
import { LEASE_TARGET } from '../../../generator/config.js';

interface PathItem {
  get: { operationId: string };
  put: { operationId: string };
  parameters: Array<{ name: string }>;
}
interface Json {
  paths: Record<string, PathItem>;
}

const NAMED = '/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}';

function failure(edit: (doc: Json) => void): GeneratorError {
  const doc = structuredClone(releaseDocument('1.35.0')) as unknown as Json;
  edit(doc);
  try {
    buildReleaseIr('1.35.0', doc as unknown as Record<string, unknown>, 'doc.json', LEASE_TARGET);
  } catch (error) {
    if (error instanceof GeneratorError) return error;
    throw error;
  }
  throw new Error('expected a GeneratorError');
}

describe('names that reach TypeScript are checked', () => {
  it.each([
    [
      'an operationId that is not an identifier',
      (d: Json): void => void (d.paths[NAMED]!.get.operationId = 'readCoordinationV1Namespaced-Lease'),
      /operationId "readCoordinationV1Namespaced-Lease" does not make a TypeScript function name/,
      '#/paths/~1apis~1coordination.k8s.io~1v1~1namespaces~1{namespace}~1leases~1{name}/get/operationId',
    ],
    [
      'two operations with one function name',
      (d: Json): void => void (d.paths[NAMED]!.put.operationId = 'readCoordinationV1NamespacedLease'),
      /would both be emitted as readNamespacedLease/,
      '/put/operationId',
    ],
    [
      'a reserved word as function name',
      (d: Json): void => void (d.paths[NAMED]!.get.operationId = 'delete'),
      /does not make a TypeScript function name \("delete"\)/,
      '/get/operationId',
    ],
    [
      'eval as function name (no binding may be named so in a module)',
      (d: Json): void => void (d.paths[NAMED]!.get.operationId = 'eval'),
      /does not make a TypeScript function name \("eval"\)/,
      '/get/operationId',
    ],
    [
      'arguments as function name',
      (d: Json): void => void (d.paths[NAMED]!.get.operationId = 'arguments'),
      /does not make a TypeScript function name \("arguments"\)/,
      '/get/operationId',
    ],
    [
      'a path parameter that is not an identifier',
      (d: Json): void => {
        const item = d.paths[NAMED]!;
        delete d.paths[NAMED];
        for (const p of item.parameters) if (p.name === 'name') p.name = 'lease-name';
        d.paths['/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{lease-name}'] = item;
      },
      /path parameter "lease-name" is not usable/,
      '{lease-name}',
    ],
  ] as const)('%s', (_name, edit, message, pointer) => {
    const error = failure(edit);
    expect(error.code).toBe('unsupported-schema');
    expect(error.toLine()).toMatch(message);
    expect(error.toLine()).toContain(pointer);
    expect(error.toLine().split('\n')).toHaveLength(1);
  });
});
