import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyFixups, FIXUPS } from '../../../../generator/load/fixups/apply-fixups.js';
import type { Fixup, FixupContext } from '../../../../generator/load/fixups/fixup.js';
import {
  dropSchemaDefaults,
  restrictGroupVersionKinds,
  unwrapBareAllOfRefs,
} from '../../../../generator/load/fixups/normal-form.js';
import {
  declareProseEnums,
  deleteCollectionReturnsList,
  dropUniqueItemsOnScalars,
  markProseDeprecations,
  typePrettyAsBoolean,
} from '../../../../generator/load/fixups/upstream-bugs.js';
import { extractGroupSubset } from '../../../../generator/load/extract-group-subset.js';
import { normalizeUpstreamDocument } from '../../../../generator/load/normalize-document.js';
import { parseUpstreamDocument, type UpstreamDocument } from '../../../../generator/load/read-document.js';
import { convertSchema, swagger2ToOpenApi3 } from '../../../../generator/load/swagger2-to-open-api3.js';
import { GeneratorError } from '../../../../generator/errors.js';
import type { JsonObject } from '../../../../generator/shared/json.js';
import { manifestReleases, releaseDocument, upstreamSwagger, V3_SNAPSHOT } from '../../../helpers/project.js';
import { LEASE_TARGET } from '../../../../generator/config.js';

const REF = { $ref: '#/components/schemas/X' };
const SWAGGER: FixupContext = { release: '1.35.0', format: 'swagger2', group: LEASE_TARGET.group };

function fix(fixup: Fixup, input: JsonObject): { document: JsonObject; fixed: number } {
  return fixup.apply(structuredClone(input), SWAGGER);
}

describe('each fixup on a synthetic document', () => {
  it.each<[string, Fixup, JsonObject, JsonObject]>([
    [
      'drops defaults',
      dropSchemaDefaults,
      { type: 'object', default: {}, properties: { a: { type: 'string', default: '' } } },
      { type: 'object', properties: { a: { type: 'string' } } },
    ],
    ['unwraps a bare allOf around one $ref', unwrapBareAllOfRefs, { items: { allOf: [REF] } }, { items: REF }],
    [
      'drops uniqueItems on scalars',
      dropUniqueItemsOnScalars,
      { schema: { type: 'string', uniqueItems: true } },
      { schema: { type: 'string' } },
    ],
    [
      'declares enums spelled out in prose',
      declareProseEnums,
      { name: 'propagationPolicy', in: 'query', schema: { type: 'string' } },
      {
        name: 'propagationPolicy',
        in: 'query',
        schema: { type: 'string', enum: ['Background', 'Foreground', 'Orphan'] },
      },
    ],
    [
      'types pretty as a boolean',
      typePrettyAsBoolean,
      { name: 'pretty', in: 'query', schema: { type: 'string' } },
      { name: 'pretty', in: 'query', schema: { type: 'boolean' } },
    ],
    [
      'marks prose deprecations',
      markProseDeprecations,
      { operationId: 'watchX', description: 'deprecated: use the watch parameter' },
      { operationId: 'watchX', description: 'deprecated: use the watch parameter', deprecated: true },
    ],
    [
      'keeps only this group version kinds',
      restrictGroupVersionKinds,
      {
        'x-kubernetes-group-version-kind': [
          { group: '', kind: 'DeleteOptions', version: 'v1' },
          { group: 'coordination.k8s.io', kind: 'DeleteOptions', version: 'v1' },
        ],
      },
      { 'x-kubernetes-group-version-kind': [{ group: 'coordination.k8s.io', kind: 'DeleteOptions', version: 'v1' }] },
    ],
  ])('%s, and reports what it fixed', (_name, fixup, input, expected) => {
    const outcome = fix(fixup, input);
    expect(outcome.document).toEqual(expected);
    expect(outcome.fixed).toBeGreaterThan(0);
    // Fixed once, there is nothing left: the fixup would now report itself obsolete.
    expect(fix(fixup, outcome.document).fixed).toBe(0);
  });

  it.each<[string, Fixup, JsonObject]>([
    [
      'keeps a property that happens to be called default',
      dropSchemaDefaults,
      { properties: { default: { type: 'string' } } },
    ],
    ['keeps allOf that carries a description', unwrapBareAllOfRefs, { allOf: [REF], description: 'd' }],
    ['keeps uniqueItems on arrays', dropUniqueItemsOnScalars, { type: 'array', uniqueItems: true }],
    ['leaves descriptions alone', dropSchemaDefaults, { description: 'default: {}' }],
  ])('%s, and finds nothing to fix', (_name, fixup, input) => {
    expect(fix(fixup, input)).toEqual({ document: input, fixed: 0 });
  });

  it('drops the group-version-kinds of other groups altogether', () => {
    expect(
      fix(restrictGroupVersionKinds, {
        'x-kubernetes-group-version-kind': [{ group: 'apps', kind: 'X', version: 'v1' }],
      }).document,
    ).toEqual({});
  });

  it("takes the list operation's 200 schema for the deletecollection 200, keeping its media types", () => {
    const list = { $ref: '#/components/schemas/LeaseList' };
    const get = {
      'x-kubernetes-action': 'list',
      responses: { '200': { description: 'OK', content: { 'application/json': { schema: list } } } },
    };
    const status = { schema: { $ref: '#/components/schemas/Status' } };
    const document = {
      paths: {
        '/leases': {
          get,
          delete: {
            'x-kubernetes-action': 'deletecollection',
            responses: {
              '200': { description: 'OK', content: { 'application/json': status, 'application/yaml': status } },
              '401': { description: 'Unauthorized' },
            },
          },
        },
      },
    };
    const outcome = deleteCollectionReturnsList.apply(document, SWAGGER);
    const fixed = outcome.document as typeof document;
    expect(outcome.fixed).toBe(1);
    expect(fixed.paths['/leases'].delete.responses['200'].content).toEqual({
      'application/json': { schema: list },
      'application/yaml': { schema: list },
    });
    expect(fixed.paths['/leases'].delete.responses['401']).toEqual({ description: 'Unauthorized' });
    expect(fixed.paths['/leases'].get).toBe(get);
    expect(deleteCollectionReturnsList.apply(fixed, SWAGGER).fixed).toBe(0);
  });
});

describe('a fixup that finds nothing fails the ingest', () => {
  it('applyFixups names the obsolete fixup', () => {
    expect(applyFixups({ paths: {} }, SWAGGER)).toEqual({ ok: false, obsolete: 'restrictGroupVersionKinds' });
  });

  it('spec:update stops with an obsolete-fixup error naming the release and the fixup once upstream has repaired the bug', async () => {
    // Upstream typing `pretty` as the boolean it is: the fixup for it has become dead code.
    const swagger = JSON.parse(readFileSync(upstreamSwagger('1.35.0'), 'utf8')) as JsonObject;
    const repaired = JSON.parse(
      JSON.stringify(swagger).replaceAll('"name":"pretty","type":"string"', '"name":"pretty","type":"boolean"'),
    ) as JsonObject;
    expect(JSON.stringify(repaired)).not.toBe(JSON.stringify(swagger));
    const upstream: UpstreamDocument = { format: 'swagger2', file: 'swagger.json', document: repaired };
    const failure = await normalizeUpstreamDocument(upstream, '1.36.0', LEASE_TARGET).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(GeneratorError);
    expect((failure as GeneratorError).code).toBe('obsolete-fixup');
    expect((failure as GeneratorError).message).toContain(
      'typePrettyAsBoolean found nothing to fix in 1.36.0 (swagger2)',
    );
  });
});

/** The upstream forms the tests hold: every release's swagger.json subset, and the OpenAPI v3 snapshot. */
function realUpstreamDocuments(): Array<[string, UpstreamDocument, FixupContext]> {
  const swaggers = manifestReleases().map(({ release }): [string, UpstreamDocument, FixupContext] => {
    const file = upstreamSwagger(release);
    return [
      `${release} swagger.json`,
      parseUpstreamDocument(file, readFileSync(file, 'utf8')),
      { release, format: 'swagger2', group: LEASE_TARGET.group },
    ];
  });
  const v3: [string, UpstreamDocument, FixupContext] = [
    'the OpenAPI v3 snapshot',
    parseUpstreamDocument(V3_SNAPSHOT, readFileSync(V3_SNAPSHOT, 'utf8')),
    { release: '1.31.0', format: 'openapi3', group: LEASE_TARGET.group },
  ];
  return [...swaggers, v3];
}

describe('the fixups on the real upstream documents', () => {
  it.each(realUpstreamDocuments())(
    'every fixup listed for %s finds something to fix there',
    async (_name, upstream, context) => {
      const subset = extractGroupSubset(upstream, LEASE_TARGET.group);
      let document = upstream.format === 'swagger2' ? swagger2ToOpenApi3(subset) : subset;
      const found: Record<string, number> = {};
      for (const fixup of FIXUPS.filter((f) => f.appliesTo(context))) {
        const outcome = fixup.apply(document, context);
        found[fixup.name] = outcome.fixed;
        document = outcome.document;
      }
      expect(
        Object.values(found).every((n) => n > 0),
        JSON.stringify(found),
      ).toBe(true);
      expect((await normalizeUpstreamDocument(upstream, context.release, LEASE_TARGET)).document).toBeDefined();
    },
  );

  it('the v3-only normal-form fixups are not run on swagger.json, which has no defaults or allOf wrappers', () => {
    const skipped = FIXUPS.filter((f) => !f.appliesTo(SWAGGER)).map((f) => f.name);
    expect(skipped).toEqual(['dropSchemaDefaults', 'unwrapBareAllOfRefs']);
    const swagger = readFileSync(upstreamSwagger('1.35.0'), 'utf8');
    expect(swagger).not.toContain('"default"');
    expect(swagger).not.toContain('"allOf"');
  });

  it.each(manifestReleases().map((r) => r.release))(
    'the committed normalised document of %s has nothing left to fix',
    (release) => {
      const document = releaseDocument(release);
      for (const fixup of FIXUPS) {
        expect(
          fixup.apply(document, { release, format: 'openapi3', group: LEASE_TARGET.group }).fixed,
          fixup.name,
        ).toBe(0);
      }
    },
  );

  it('the upstream bugs and the normal form are kept apart', () => {
    const kinds = Object.fromEntries(FIXUPS.map((f) => [f.name, f.kind]));
    expect(kinds).toEqual({
      dropSchemaDefaults: 'normal-form',
      unwrapBareAllOfRefs: 'normal-form',
      restrictGroupVersionKinds: 'normal-form',
      dropUniqueItemsOnScalars: 'upstream-bug',
      declareProseEnums: 'upstream-bug',
      typePrettyAsBoolean: 'upstream-bug',
      markProseDeprecations: 'upstream-bug',
      deleteCollectionReturnsList: 'upstream-bug',
    });
  });
});

describe('Swagger 2.0 schema conversion', () => {
  it.each([
    ['rewrites definition refs', { $ref: '#/definitions/a.B' }, { $ref: '#/components/schemas/a.B' }],
    [
      'wraps a ref with a sibling description in allOf',
      { $ref: '#/definitions/a.B', description: 'd' },
      { allOf: [{ $ref: '#/components/schemas/a.B' }], description: 'd' },
    ],
    [
      'converts nested items',
      { type: 'array', items: { $ref: '#/definitions/a.B' } },
      { type: 'array', items: { $ref: '#/components/schemas/a.B' } },
    ],
    [
      'keeps extensions as data',
      { 'x-kubernetes-patch-merge-key': 'uid', type: 'string' },
      { 'x-kubernetes-patch-merge-key': 'uid', type: 'string' },
    ],
  ] as const)('%s', (_name, input, expected) => {
    expect(convertSchema(input)).toEqual(expected);
  });
});
