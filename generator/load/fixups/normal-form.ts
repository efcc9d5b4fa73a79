import { isJsonObject } from '../../shared/json.js';
import { mapDeep, type Fixup, type FixupOutcome } from './fixup.js';

/*
 * This project's normal form: the upstream documents are right here, but the two forms upstream publishes
 * (swagger.json and the per-group OpenAPI v3 document) say the same thing differently, and shared types
 * describe every group that uses them. Each fixup makes one difference disappear.
 */

/**
 * Upstream's v3 documents carry `default` values (`{}` on nested objects, `""` on strings) that its
 * swagger.json does not have; they describe Go zero values, not server behaviour.
 */
export const dropSchemaDefaults: Fixup = {
  name: 'dropSchemaDefaults',
  kind: 'normal-form',
  appliesTo: (context) => context.format === 'openapi3',
  apply: (document) =>
    mapDeep(document, (object) => {
      if (!('default' in object)) return object;
      const { default: _dropped, ...rest } = object;
      return rest;
    }),
};

/**
 * Upstream's v3 documents wrap a `$ref` in `allOf` to hang a `default` beside it; once defaults are dropped,
 * a lone `allOf` with no siblings says nothing more than the `$ref` itself (which is what swagger.json has).
 */
export const unwrapBareAllOfRefs: Fixup = {
  name: 'unwrapBareAllOfRefs',
  kind: 'normal-form',
  appliesTo: (context) => context.format === 'openapi3',
  apply: (document) =>
    mapDeep(document, (object) => {
      const allOf = object['allOf'];
      const only = Array.isArray(allOf) && allOf.length === 1 ? allOf[0] : undefined;
      return Object.keys(object).length === 1 && isJsonObject(only) && typeof only['$ref'] === 'string' ? only : object;
    }),
};

/**
 * Shared meta types (DeleteOptions, WatchEvent) list a group-version-kind for every API group that uses
 * them, and the list shifts in every release and between the two forms. Only this group's entries describe
 * this group's API.
 */
export const restrictGroupVersionKinds: Fixup = {
  name: 'restrictGroupVersionKinds',
  kind: 'normal-form',
  appliesTo: () => true,
  apply: (document, { group }): FixupOutcome =>
    mapDeep(document, (object) => {
      const gvks = object['x-kubernetes-group-version-kind'];
      if (!Array.isArray(gvks)) return object;
      const own = gvks.filter((entry) => isJsonObject(entry) && entry['group'] === group);
      if (own.length === gvks.length) return object;
      const { 'x-kubernetes-group-version-kind': _dropped, ...rest } = object;
      return own.length > 0 ? { ...rest, 'x-kubernetes-group-version-kind': own } : rest;
    }),
};

export const NORMAL_FORM: readonly Fixup[] = [dropSchemaDefaults, unwrapBareAllOfRefs, restrictGroupVersionKinds];
