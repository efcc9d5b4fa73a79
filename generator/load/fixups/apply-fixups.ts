import type { JsonObject } from '../../shared/json.js';
import type { Fixup, FixupContext } from './fixup.js';
import { NORMAL_FORM } from './normal-form.js';
import { UPSTREAM_BUGS } from './upstream-bugs.js';

/** Every fixup, in the order they run: the normal form first (defaults must be gone before a lone allOf is unwrapped). */
export const FIXUPS: readonly Fixup[] = [...NORMAL_FORM, ...UPSTREAM_BUGS];

export type FixupsResult =
  | { readonly ok: true; readonly document: JsonObject; readonly applied: readonly string[] }
  | { readonly ok: false; readonly obsolete: string };

/**
 * Runs the fixups that apply to the release and form. One that finds nothing to fix is an error: the
 * upstream document no longer has the defect (or a fixup's range is wrong), and someone must decide.
 */
export function applyFixups(
  document: JsonObject,
  context: FixupContext,
  fixups: readonly Fixup[] = FIXUPS,
): FixupsResult {
  let current = document;
  const applied: string[] = [];
  for (const fixup of fixups) {
    if (!fixup.appliesTo(context)) continue;
    const outcome = fixup.apply(current, context);
    if (outcome.fixed === 0) return { ok: false, obsolete: fixup.name };
    current = outcome.document;
    applied.push(fixup.name);
  }
  return { ok: true, document: current, applied };
}
