// Copied by lease-api-generator from templates/server/patch/patch-error.ts. DO NOT EDIT: edit that file and run `npm run generate`.
// Patch failures carry the HTTP code Kubernetes uses for them: 400 for an undecodable patch,
// 413 for a JSON patch with too many operations, 422 for a well-formed patch that cannot be applied.
export interface PatchError {
  code: 400 | 413 | 422;
  message: string;
}

export function patchBadRequest(message: string): PatchError {
  return { code: 400, message };
}

export function patchTooLarge(message: string): PatchError {
  return { code: 413, message };
}

export function patchUnprocessable(message: string): PatchError {
  return { code: 422, message };
}
