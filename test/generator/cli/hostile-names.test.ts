import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyOfSpecDir, runCommand, tempDir, treeDigest } from '../../helpers/cli.js';
import { upstreamSwagger } from '../../helpers/project.js';
import { typeCheckDirectory } from '../../helpers/type-check.js';

/**
 * Spec text names things: a property or query parameter called like an Object.prototype member, or an
 * operationId that strict mode forbids, either generates working code or is a one-line error (exit 2);
 * never a silent drop, never a stack trace.
 */
type Json = Record<string, unknown>;

const ALL_LEASES = '/apis/coordination.k8s.io/v1/leases';
const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'] as const;

function upstream(): Json {
  return JSON.parse(readFileSync(upstreamSwagger('1.35.0'), 'utf8')) as Json;
}

/** An own key, as JSON.parse makes one: assignment would set the prototype for `__proto__`. */
function defineOwn(object: Json, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

function writeDocument(doc: Json): string {
  const file = join(tempDir('lease-hostile-'), 'swagger.json');
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

interface CapturedRequest {
  readonly method: string;
  readonly path: string;
  readonly query?: string;
}
type ListOperation = (
  client: { request: (request: CapturedRequest) => Promise<CapturedRequest> },
  params: Json,
) => Promise<CapturedRequest>;

describe('spec:update with spec names that are Object.prototype members', () => {
  let spec: string;
  let out: string;
  let status: number | null;
  let stderr: string;

  beforeAll(async () => {
    const doc = upstream();
    const definitions = doc['definitions'] as Record<string, Json>;
    defineOwn(definitions['io.k8s.api.coordination.v1.LeaseSpec']!['properties'] as Json, '__proto__', {
      type: 'string',
      description: 'a property named __proto__',
    });
    const item = (doc['paths'] as Record<string, Json>)[ALL_LEASES]!;
    item['parameters'] = [
      ...(item['parameters'] as unknown[]),
      ...PROTOTYPE_NAMES.map((name) => ({
        name,
        in: 'query',
        type: 'string',
        uniqueItems: true,
        description: `a query parameter named ${name}`,
      })),
    ];
    spec = copyOfSpecDir();
    out = join(tempDir('lease-hostile-out-'), 'generated');
    ({ status, stderr } = await runCommand('spec-update', [
      '--release',
      '1.35.0',
      '--spec',
      writeDocument(doc),
      '--spec-dir',
      spec,
      '--out',
      out,
    ]));
  });

  it('succeeds', () => {
    expect(status, stderr).toBe(0);
  });

  it('a property named __proto__ is kept in spec/openapi and in the model', () => {
    const document = JSON.parse(readFileSync(join(spec, 'openapi', 'v1.35.0.json'), 'utf8')) as {
      components: { schemas: Record<string, { properties: Json }> };
    };
    const properties = document.components.schemas['io.k8s.api.coordination.v1.LeaseSpec']!.properties;
    expect(Object.hasOwn(properties, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    const models = readFileSync(join(out, 'k8s-lease-client', 'src', 'v1_35', 'models.ts'), 'utf8');
    const leaseSpec = /export interface LeaseSpec \{[\s\S]*?\n\}/.exec(models)?.[0] ?? '';
    expect(leaseSpec).toMatch(/\n {2}__proto__\?: string \| undefined;/);
  });

  it('the generated client type-checks under the strict options', () => {
    expect(typeCheckDirectory(join(out, 'k8s-lease-client', 'src'))).toEqual([]);
  });

  it.each(PROTOTYPE_NAMES)('a query parameter named %s is sent when given and absent when not', async (name) => {
    const operations = (await import(
      pathToFileURL(join(out, 'k8s-lease-client', 'dist', 'v1_35', 'operations.js')).href
    )) as { listLeaseForAllNamespaces: ListOperation };
    const client = { request: (request: CapturedRequest): Promise<CapturedRequest> => Promise.resolve(request) };
    expect((await operations.listLeaseForAllNamespaces(client, {})).query).toBe('');
    const params: Json = {};
    defineOwn(params, name, 'x y');
    expect((await operations.listLeaseForAllNamespaces(client, params)).query).toBe(`?${name}=x%20y`);
  });
});

describe('spec:update with an operationId strict mode forbids', () => {
  it.each(['eval', 'arguments'])('operationId %s is a one-line error, exit 2, nothing written', async (operationId) => {
    const doc = upstream();
    const named = (doc['paths'] as Record<string, Record<string, Json>>)[
      '/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}'
    ]!;
    named['get']!['operationId'] = operationId;
    const spec = copyOfSpecDir();
    const out = join(tempDir('lease-hostile-out-'), 'generated');
    const before = [treeDigest(spec), treeDigest(out)];
    const result = await runCommand('spec-update', [
      '--release',
      '1.35.0',
      '--spec',
      writeDocument(doc),
      '--spec-dir',
      spec,
      '--out',
      out,
    ]);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(`^error: .*/get/operationId: operationId "${operationId}" does not make a TypeScript function name`),
      ),
    ]);
    expect([treeDigest(spec), treeDigest(out)]).toEqual(before);
  });
});
