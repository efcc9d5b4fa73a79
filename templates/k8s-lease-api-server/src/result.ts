// Errors travel as values so every failure path is visible in signatures.
/** A value or a typed error, as the store handle's writes return them: check `ok` before reading `value`. */
export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function err<E>(error: E): { ok: false; error: E } {
  return { ok: false, error };
}
