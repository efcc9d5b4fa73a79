// The part of apimachinery's ValidateObjectMetaAccessorUpdate (api/validation/objectmeta.go) that an update
// can still reach here: the rest of the system metadata is carried over from the live object before
// validation, as rest.BeforeUpdate does, but a uid is kept when the update provides one.
import type { ValueStyle } from '../field-value.js';
import type { JsonObject } from '../json.js';
import { objectAt, stringAt } from '../json.js';
import type { FieldError } from '../status.js';

/** apimachinery's FieldImmutableErrorMsg. */
const FIELD_IMMUTABLE = 'field is immutable';

/** ValidateImmutableField(newMeta.GetUID(), oldMeta.GetUID(), metadata.uid); nothing on create. */
export function validateUidUpdate(next: JsonObject, old: JsonObject | undefined, style: ValueStyle): FieldError[] {
  if (old === undefined) return [];
  const uid = stringAt(objectAt(next, 'metadata') ?? {}, 'uid') ?? '';
  const before = stringAt(objectAt(old, 'metadata') ?? {}, 'uid') ?? '';
  if (uid === before) return [];
  return [
    { type: 'Invalid', field: 'metadata.uid', value: { style, goType: 'types.UID', uid }, detail: FIELD_IMMUTABLE },
  ];
}
