import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { extractGroupSubset } from '../../../generator/load/extract-group-subset.js';
import { readUpstreamDocument } from '../../../generator/load/read-document.js';
import { copyOfSpecDir, runCommand, tempDir, treeDigest } from '../../helpers/cli.js';
import { upstreamSwagger } from '../../helpers/project.js';
import { LEASE_TARGET } from '../../../generator/config.js';

/**
 * Every kind of bad input gives one line on stderr naming the file (and the
 * JSON pointer where one applies), exit code 2, and leaves spec/ and
 * generated/ exactly as they were.
 */
type Json = Record<string, unknown>;

let realSubset: Json;

beforeAll(async () => {
  realSubset = extractGroupSubset(await readUpstreamDocument(upstreamSwagger('1.35.0')), LEASE_TARGET.group);
});

function definitions(doc: Json): Record<string, Json> {
  return doc['definitions'] as Record<string, Json>;
}

function leaseSpecProperty(doc: Json): Json {
  return (definitions(doc)['io.k8s.api.coordination.v1.Lease']!['properties'] as Record<string, Json>)['spec']!;
}

async function expectCleanFailure(args: {
  command: 'spec-update' | 'generate';
  argv: (dirs: { spec: string; out: string }) => string[];
  message: RegExp;
  specDir?: string;
}): Promise<string> {
  const spec = args.specDir ?? copyOfSpecDir();
  const out = tempDir('lease-out-');
  mkdirSync(join(out, 'src'), { recursive: true });
  writeFileSync(join(out, 'src', 'sentinel.ts'), 'export const untouched = true;\n');
  const before = [treeDigest(spec), treeDigest(out)];
  const result = await runCommand(args.command, [...args.argv({ spec, out }), '--spec-dir', spec, '--out', out]);
  expect(result.status, result.stderr).toBe(2);
  const lines = result.stderr.trim().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(args.message);
  expect([treeDigest(spec), treeDigest(out)]).toEqual(before);
  return lines[0]!;
}

function fixture(name: string, content: string): string {
  const dir = tempDir('lease-fixture-');
  const file = join(dir, name);
  writeFileSync(file, content);
  return file;
}

describe('bad input', () => {
  it('a file that is not JSON', async () => {
    const file = fixture('swagger.json', '{"swagger": "2.0", "paths": {');
    const line = await expectCleanFailure({
      command: 'spec-update',
      argv: () => ['--release', '1.35.0', '--spec', file],
      message: /not JSON/,
    });
    expect(line).toContain(file);
  });

  it('JSON that is not Swagger/OpenAPI', async () => {
    const file = fixture('swagger.json', JSON.stringify({ kind: 'Lease', apiVersion: 'coordination.k8s.io/v1' }));
    const line = await expectCleanFailure({
      command: 'spec-update',
      argv: () => ['--release', '1.35.0', '--spec', file],
      message: /not a Swagger 2\.0 or OpenAPI 3\.x document/,
    });
    expect(line).toContain(file);
  });

  it('a document with no coordination.k8s.io paths', async () => {
    const doc = structuredClone(realSubset);
    doc['paths'] = {
      '/api/v1/namespaces': {
        get: { operationId: 'listCoreV1Namespace', responses: { '200': { description: 'OK' } } },
      },
    };
    const file = fixture('swagger.json', JSON.stringify(doc));
    const line = await expectCleanFailure({
      command: 'spec-update',
      argv: () => ['--release', '1.35.0', '--spec', file],
      message: /no coordination\.k8s\.io paths/,
    });
    expect(line).toContain(`${file}#/paths`);
  });

  it('a document with LeaseCandidate paths but no coordination.k8s.io/v1 (Lease) paths', async () => {
    const doc = structuredClone(realSubset);
    const paths = doc['paths'] as Record<string, unknown>;
    doc['paths'] = Object.fromEntries(
      Object.entries(paths).filter(([path]) => !path.startsWith('/apis/coordination.k8s.io/v1/')),
    );
    const file = fixture('swagger.json', JSON.stringify(doc));
    const line = await expectCleanFailure({
      command: 'spec-update',
      argv: () => ['--release', '1.35.0', '--spec', file],
      message:
        /no coordination\.k8s\.io\/v1 paths \(the root version, which every release must serve\); found v1alpha2, v1beta1/,
    });
    expect(line).toContain(`${file}#/paths`);
  });

  it('a dangling $ref, with its JSON pointer', async () => {
    const doc = structuredClone(realSubset);
    leaseSpecProperty(doc)['$ref'] = '#/definitions/io.k8s.api.coordination.v1.Missing';
    const file = fixture('swagger.json', JSON.stringify(doc));
    const line = await expectCleanFailure({
      command: 'spec-update',
      argv: () => ['--release', '1.35.0', '--spec', file],
      message: /dangling \$ref "#\/definitions\/io\.k8s\.api\.coordination\.v1\.Missing"/,
    });
    expect(line).toContain(`${file}#/definitions/io.k8s.api.coordination.v1.Lease/properties/spec/$ref`);
  });

  it('a $ref cycle that never reaches a schema', async () => {
    const doc = structuredClone(realSubset);
    definitions(doc)['io.k8s.example.A'] = { $ref: '#/definitions/io.k8s.example.B' };
    definitions(doc)['io.k8s.example.B'] = { $ref: '#/definitions/io.k8s.example.A' };
    leaseSpecProperty(doc)['$ref'] = '#/definitions/io.k8s.example.A';
    const file = fixture('swagger.json', JSON.stringify(doc));
    const line = await expectCleanFailure({
      command: 'spec-update',
      argv: () => ['--release', '1.35.0', '--spec', file],
      message: /\$ref cycle that never reaches a schema/,
    });
    expect(line).toContain(
      '#/definitions/io.k8s.example.A -> #/definitions/io.k8s.example.B -> #/definitions/io.k8s.example.A',
    );
    expect(line).toContain(file);
  });

  it('an unknown release', async () => {
    const line = await expectCleanFailure({
      command: 'spec-update',
      argv: () => ['--release', '1.99.0'],
      message: /unknown release 1\.99\.0/,
    });
    expect(line).toContain('releases.json');
  });

  it('a release that is not a version number', async () => {
    await expectCleanFailure({
      command: 'spec-update',
      argv: () => ['--release', 'latest', '--from', '/nonexistent'],
      message: /--release must look like 1\.35\.0/,
    });
  });

  it('a mirror without the release', async () => {
    const mirror = tempDir('lease-mirror-');
    const line = await expectCleanFailure({
      command: 'spec-update',
      argv: () => ['--release', '1.35.0', '--from', mirror],
      message: /no document for release 1\.35\.0/,
    });
    expect(line).toContain(mirror);
  });

  it('a content-hash mismatch in a committed spec document', async () => {
    const spec = copyOfSpecDir();
    const file = join(spec, 'openapi', 'v1.30.0.json');
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { info: Json };
    doc.info['description'] = 'edited by hand';
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const line = await expectCleanFailure({
      command: 'generate',
      argv: () => [],
      message: /content hash sha256:[0-9a-f]{64} does not match sha256:[0-9a-f]{64} recorded for 1\.30\.0/,
      specDir: spec,
    });
    expect(line).toContain('v1.30.0.json');
  });

  it('an unknown option', async () => {
    await expectCleanFailure({
      command: 'generate',
      argv: () => ['--releases', 'all'],
      message: /unknown option --releases/,
    });
  });
});

describe('bad input, continued', () => {
  it('an output directory that cannot be written', async () => {
    const blocker = join(tempDir('lease-blocked-'), 'file');
    writeFileSync(blocker, 'not a directory');
    const result = await runCommand('generate', ['--out', join(blocker, 'generated')]);
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^error: .*file\/generated: cannot write output: E[A-Z]+: /);
  });

  it('an option followed by another option instead of a value', async () => {
    const result = await runCommand('generate', ['--out', '--spec-dir', 'spec']);
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe('error: --out needs a value');
  });

  it('an option named like an Object.prototype member', async () => {
    const result = await runCommand('generate', ['--constructor', 'x']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^error: unknown option --constructor/);
  });
});

describe('spec:update when generated/ cannot be written', () => {
  it('leaves spec/ as it was', async () => {
    const spec = copyOfSpecDir();
    const before = treeDigest(spec);
    const blocker = join(tempDir('lease-blocked-'), 'file');
    writeFileSync(blocker, 'not a directory');
    const doc = structuredClone(realSubset);
    (definitions(doc)['io.k8s.api.coordination.v1.LeaseSpec']!['properties'] as Record<string, unknown>)['renewCount'] =
      { type: 'integer', format: 'int32' };
    const file = fixture('swagger.json', JSON.stringify(doc));
    const result = await runCommand('spec-update', [
      '--release',
      '1.35.0',
      '--spec',
      file,
      '--spec-dir',
      spec,
      '--out',
      join(blocker, 'generated'),
    ]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/cannot write output/);
    expect(treeDigest(spec)).toBe(before);
  });
});
