// Patch failures carry the HTTP code Kubernetes uses for them: 400 for an undecodable patch,
// 413 for a JSON patch with too many operations, 422 for a well-formed patch that cannot be applied.
export interface PatchError {
  code: 400 | 413 | 422;
  message: string;
  /**
   * For a 422: true when the patch applied but its result does not decode, which kube-apiserver reports as an
   * Invalid `patch` field (patch.go applyPatchToCurrentObject); otherwise the patch library's failure, which it
   * answers with NewGenericServerResponse(422) and a generic message.
   */
  undecodable?: boolean | undefined;
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

export function patchUndecodable(message: string): PatchError {
  return { code: 422, message, undecodable: true };
}
