// Response transformations asked for in Accept, as k8s.io/apiserver/pkg/endpoints/handlers/response.go does them:
// optionsForTransform reads TableOptions only for a Table target (includeObject defaulting to Metadata,
// ValidateTableOptions refusing other values with a 400 "Unable to convert to Table as requested").
import { describe, expect, it } from 'vitest';
import type { Target } from '../../../templates/k8s-lease-api-server/src/http/negotiation.js';
import { tableOptionsFor } from '../../../templates/k8s-lease-api-server/src/http/transform.js';

const TABLE: Target = { kind: 'Table', version: 'v1' };

describe('tableOptionsFor', () => {
  it('reads nothing unless the target is a Table', () => {
    expect(tableOptionsFor(undefined, new URLSearchParams('includeObject=bogus'))).toEqual({
      ok: true,
      value: undefined,
    });
  });

  it.each([
    ['', { include: 'Metadata', noHeaders: false }],
    ['includeObject=Object', { include: 'Object', noHeaders: false }],
    ['includeObject=None&-=true', { include: 'None', noHeaders: true }],
    ['includeObject=Metadata&includeObject=bogus', { include: 'Metadata', noHeaders: false }],
  ])('reads %j as %j', (query, options) => {
    expect(tableOptionsFor(TABLE, new URLSearchParams(query))).toEqual({ ok: true, value: options });
  });

  it('refuses any other includeObject with a 400', () => {
    expect(tableOptionsFor(TABLE, new URLSearchParams('includeObject=object'))).toEqual({
      ok: false,
      error: {
        code: 400,
        reason: 'BadRequest',
        message:
          "Unable to convert to Table as requested: includeObject: Invalid value: \"object\": must be 'Metadata', 'Object', 'None', or empty",
      },
    });
  });
});
