import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPackageFiles } from '../../../generator/generate.js';
import { contentHash } from '../../../generator/load/canonical-json.js';
import { describeType } from '../../../generator/ir/type-description.js';
import { typeText } from '../../../generator/emit/type-text.js';
import type { TypeRef } from '../../../generator/ir/types.js';
import { releaseDocument } from '../../helpers/project.js';

/** A copy of 1.35.0's document as a made-up 1.36.0 in which LeaseSpec.leaseDurationSeconds became an int64. */
function widenedDocument(): Record<string, unknown> {
  const document = releaseDocument('1.35.0');
  const schemas = (
    document['components'] as { schemas: Record<string, { properties: Record<string, { format?: string }> }> }
  ).schemas;
  const field = schemas['io.k8s.api.coordination.v1.LeaseSpec']?.properties['leaseDurationSeconds'];
  if (field?.format !== 'int32')
    throw new Error('1.35.0 no longer has an int32 LeaseSpec.leaseDurationSeconds; pick another field');
  field.format = 'int64';
  return document;
}

interface ApiDiffJson {
  diffs: Array<{
    from: string;
    to: string;
    changes: Array<{ class: string; kind: string; subject: string; detail: string }>;
  }>;
}

describe('a format-only change (int32 → int64) reaches the API diff', () => {
  let dir: string;
  let files: Map<string, string>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lease-format-change-'));
    const specDir = join(dir, 'spec');
    await mkdir(join(specDir, 'openapi'), { recursive: true });
    const documents: Array<[string, Record<string, unknown>]> = [
      ['1.35.0', releaseDocument('1.35.0')],
      ['1.36.0', widenedDocument()],
    ];
    const releases = [];
    for (const [release, document] of documents) {
      await writeFile(join(specDir, 'openapi', `v${release}.json`), JSON.stringify(document));
      releases.push({
        release,
        document: `openapi/v${release}.json`,
        contentHash: contentHash(document),
        upstream: { swagger: 'https://example.invalid/swagger.json' },
      });
    }
    await writeFile(join(specDir, 'releases.json'), JSON.stringify({ releases }));
    ({ files } = await buildPackageFiles({ specDir, outDir: join(dir, 'out') }));
  }, 120_000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('CHANGELOG.md lists the field as retyped, under Breaking, with both formats', () => {
    const changelog = files.get('k8s-lease-client/CHANGELOG.md') ?? '';
    const section = changelog.slice(changelog.indexOf('## 1.36.0'), changelog.indexOf('## 1.35.0'));
    expect(section).toContain('1 breaking, 0 additive, 0 docs-only.');
    expect(section).toContain(
      '### Breaking\n\n- `LeaseSpec.leaseDurationSeconds` — field retyped: integer(int32) → integer(int64)\n',
    );
  });

  it('api-diff.json records it as a breaking field-retyped change', () => {
    const apiDiff = JSON.parse(files.get('k8s-lease-client/api-diff.json') ?? '{}') as ApiDiffJson;
    expect(apiDiff.diffs).toHaveLength(1);
    expect(apiDiff.diffs[0]?.changes).toEqual([
      {
        class: 'breaking',
        kind: 'field-retyped',
        subject: 'LeaseSpec.leaseDurationSeconds',
        detail: 'integer(int32) → integer(int64)',
      },
    ]);
  });

  it('the generated TypeScript keeps the field a number in both releases', () => {
    for (const module of ['v1_35', 'v1_36']) {
      const models = modelsOf(files, module);
      expect(models, module).toMatch(/leaseDurationSeconds\?: number \| undefined;/);
    }
  });
});

/** A release's models, following the re-export a release that repeats the previous one's API is shipped as. */
function modelsOf(files: ReadonlyMap<string, string>, module: string): string {
  const text = files.get(`k8s-lease-client/src/${module}/models.ts`) ?? '';
  const shared = /^export \* from '\.\.\/(v\d+_\d+)\/models\.js';$/m.exec(text)?.[1];
  return shared === undefined ? text : modelsOf(files, shared);
}

describe('the IR type description', () => {
  it.each<[string, TypeRef, string, string]>([
    ['integer with a format', { kind: 'integer', format: 'int64' }, 'integer(int64)', 'number'],
    ['integer without one', { kind: 'integer' }, 'integer', 'number'],
    ['number with a format', { kind: 'number', format: 'double' }, 'number(double)', 'number'],
    ['string with a format', { kind: 'string', format: 'date-time' }, 'string(date-time)', 'string'],
    [
      'string enum',
      { kind: 'string', enum: ['Exact', 'NotOlderThan'] },
      '"Exact" | "NotOlderThan"',
      '"Exact" | "NotOlderThan"',
    ],
    ['nullable model', { kind: 'model', name: 'Lease', nullable: true }, 'Lease | null', 'Lease | null'],
    [
      'array of formatted integers',
      { kind: 'array', items: { kind: 'integer', format: 'int32' } },
      'integer(int32)[]',
      'number[]',
    ],
    [
      'map of strings',
      { kind: 'map', values: { kind: 'string' } },
      '{ [key: string]: string }',
      '{ [key: string]: string }',
    ],
    ['free-form object', { kind: 'object' }, 'object', '{ [key: string]: unknown }'],
  ])(
    '%s: one description for tables and diffs, its TypeScript type for the emitters',
    (_name, type, description, typescript) => {
      expect(describeType(type)).toBe(description);
      expect(typeText(type)).toBe(typescript);
    },
  );
});
