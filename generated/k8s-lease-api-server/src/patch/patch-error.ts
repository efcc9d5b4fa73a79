// Patch failures carry the HTTP code Kubernetes uses for them: 400 for an undecodable patch,
// 422 for a well-formed patch that cannot be applied to the current object.
export interface PatchError {
  code: 400 | 422;
  message: string;
}

export function patchBadRequest(message: string): PatchError {
  return { code: 400, message };
}

export function patchUnprocessable(message: string): PatchError {
  return { code: 422, message };
}
