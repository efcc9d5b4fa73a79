// The status a patch failure maps to (apiserver endpoints/handlers/patch.go): 400 for a patch that does not
// decode, 413 past the JSON patch operation limit, 422 for one that cannot be applied — the library's failure,
// or (undecodable) a result that does not decode, reported as an Invalid "patch" field.
import { describe, expect, it } from 'vitest';
import {
  patchBadRequest,
  patchTooLarge,
  patchUndecodable,
  patchUnprocessable,
} from '../../../templates/k8s-lease-api-server/src/patch/patch-error.js';

describe('patch errors', () => {
  it('carry their HTTP code, and only an undecodable result is marked so', () => {
    expect(patchBadRequest('a')).toEqual({ code: 400, message: 'a' });
    expect(patchTooLarge('b')).toEqual({ code: 413, message: 'b' });
    expect(patchUnprocessable('c')).toEqual({ code: 422, message: 'c' });
    expect(patchUndecodable('d')).toEqual({ code: 422, message: 'd', undecodable: true });
  });
});
