// The only Lease lists with a merge strategy (both in ObjectMeta): everything else is replaced whole.
export const OWNER_REFERENCES_PATH = 'metadata.ownerReferences';
export const FINALIZERS_PATH = 'metadata.finalizers';
export const OWNER_MERGE_KEY = 'uid';

export function childPath(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}
