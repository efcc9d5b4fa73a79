import { describe, expect, it } from 'vitest';
import { extractGroupSubset } from '../../../generator/load/extract-group-subset.js';
import { GeneratorError } from '../../../generator/errors.js';
import type { UpstreamDocument } from '../../../generator/load/read-document.js';
import { LEASE_TARGET } from '../../../generator/config.js';

function swagger(definitions: Record<string, unknown>, leaseProperties: Record<string, unknown>): UpstreamDocument {
  return {
    format: 'swagger2',
    file: 'doc.json',
    document: {
      swagger: '2.0',
      info: { title: 't', version: 'v' },
      paths: {
        '/apis/coordination.k8s.io/v1/leases': {
          get: {
            operationId: 'listLeases',
            responses: { '200': { description: 'OK', schema: { $ref: '#/definitions/Lease' } } },
          },
        },
      },
      definitions: { Lease: { type: 'object', properties: leaseProperties }, ...definitions },
    },
  };
}

describe('extractGroupSubset', () => {
  it('follows refs in properties named like keywords ("example", "x-…") but not inside real examples or extensions', () => {
    const subset = extractGroupSubset(
      swagger(
        { Fencing: { type: 'object' }, Extra: { type: 'object' }, NotReached: { type: 'object' } },
        {
          example: { $ref: '#/definitions/Fencing' },
          'x-extra': { $ref: '#/definitions/Extra' },
          spec: { type: 'object', example: { $ref: '#/definitions/NotReached' } },
        },
      ),
      LEASE_TARGET.group,
    );
    expect(Object.keys(subset['definitions'] as object).sort()).toEqual(['Extra', 'Fencing', 'Lease']);
  });

  it('decodes percent-encoded and ~-escaped refs, and copies the schema under its real name', () => {
    const subset = extractGroupSubset(
      swagger(
        { 'Lease Fencing': { type: 'object' }, 'a/b': { type: 'string' } },
        { f: { $ref: '#/definitions/Lease%20Fencing' }, g: { $ref: '#/definitions/a~1b' } },
      ),
      LEASE_TARGET.group,
    );
    expect(Object.keys(subset['definitions'] as object).sort()).toEqual(['Lease', 'Lease Fencing', 'a/b']);
  });

  it('reports a malformed percent-encoding as a dangling ref with its pointer', () => {
    let error: unknown;
    try {
      extractGroupSubset(swagger({}, { f: { $ref: '#/definitions/100%' } }), LEASE_TARGET.group);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GeneratorError);
    expect((error as GeneratorError).toLine()).toBe(
      'error: doc.json#/definitions/Lease/properties/f/$ref: dangling $ref "#/definitions/100%": nothing at that pointer',
    );
  });
});
