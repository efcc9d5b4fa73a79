import { compareReleases } from '../../../generator/shared/release-names.js';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseUpstreamDocument, readUpstreamDocument } from '../../../generator/load/read-document.js';
import { upstreamFixture } from '../../../generator/load/upstream-fixture.js';
import { manifestReleases, upstreamSwagger, V3_SNAPSHOT } from '../../helpers/project.js';
import { LEASE_TARGET } from '../../../generator/config.js';

/**
 * The committed fixtures stand in for upstream's whole documents (normalize-document.test.ts checks they ingest to the
 * recorded content hashes). Here: they are in upstream's own shape, and the cut that makes them is stable.
 */
const serialise = (doc: unknown): string => `${JSON.stringify(doc, null, 2)}\n`;

describe('upstream fixtures', () => {
  it.each(manifestReleases().map((r) => r.release))(
    '%s: a Swagger 2.0 document with every top-level member upstream has, cut to the coordination.k8s.io group',
    async (release) => {
      const upstream = await readUpstreamDocument(upstreamSwagger(release));
      expect(upstream.format).toBe('swagger2');
      const doc = upstream.document as {
        paths: Record<string, unknown>;
        security: unknown;
        securityDefinitions: Record<string, unknown>;
      };
      // Upstream's order: Kubernetes writes swagger.json with sorted keys.
      expect(Object.keys(doc)).toEqual([
        'definitions',
        'info',
        'parameters',
        'paths',
        'security',
        'securityDefinitions',
        'swagger',
      ]);
      expect(doc.security).toEqual([{ BearerToken: [] }]);
      expect(Object.keys(doc.securityDefinitions)).toEqual(['BearerToken']);
      // Every version of the group (LeaseCandidate's from 1.31), never the group's own discovery path.
      expect(
        Object.keys(doc.paths).every((p) => /^\/apis\/coordination\.k8s\.io\/v1(alpha\d+|beta\d+)?\//.test(p)),
      ).toBe(true);
      expect(Object.keys(doc.paths).some((p) => p.includes('/leasecandidates'))).toBe(
        compareReleases(release, '1.31.0') >= 0,
      );
      // Cutting a fixture again changes no byte: it holds nothing unreached, in the order the script writes.
      expect(serialise(upstreamFixture(upstream, LEASE_TARGET.group))).toBe(
        readFileSync(upstreamSwagger(release), 'utf8'),
      );
    },
  );

  it('cutting the per-group OpenAPI v3 snapshot gives it back byte for byte (securitySchemes and key order kept)', async () => {
    const upstream = await readUpstreamDocument(V3_SNAPSHOT);
    expect(upstream.format).toBe('openapi3');
    expect(serialise(upstreamFixture(upstream, LEASE_TARGET.group))).toBe(readFileSync(V3_SNAPSHOT, 'utf8'));
  });

  it('keeps upstream order, drops what the group does not reach, and keeps a "__proto__" property as a property', () => {
    const text = JSON.stringify({
      swagger: '2.0',
      paths: {
        '/apis/apps/v1/deployments': {
          get: { responses: { '200': { description: 'OK', schema: { $ref: '#/definitions/Deployment' } } } },
        },
        '/apis/coordination.k8s.io/v1/leases': {
          get: { responses: { '200': { description: 'OK', schema: { $ref: '#/definitions/Lease' } } } },
        },
      },
      info: { version: 'unversioned', title: 'Kubernetes' },
      definitions: {
        Zone: { type: 'string' },
        Lease: {
          type: 'object',
          properties: { zone: { $ref: '#/definitions/Zone' }, ['__proto__']: { type: 'string' } },
        },
        Deployment: { type: 'object' },
      },
      'x-vendor': { kept: true },
    });
    const fixture = upstreamFixture(parseUpstreamDocument('doc.json', text), LEASE_TARGET.group);
    expect(Object.keys(fixture)).toEqual(['swagger', 'paths', 'info', 'definitions', 'x-vendor']);
    expect(Object.keys(fixture['info'] as object)).toEqual(['version', 'title']);
    expect(Object.keys(fixture['paths'] as object)).toEqual(['/apis/coordination.k8s.io/v1/leases']);
    expect(Object.keys(fixture['definitions'] as object)).toEqual(['Zone', 'Lease']);
    expect(serialise(fixture)).toContain('"__proto__": {\n');
    expect(Object.getPrototypeOf(fixture['definitions'])).toBe(Object.prototype);
  });
});
