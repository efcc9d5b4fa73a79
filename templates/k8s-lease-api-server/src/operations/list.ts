// LIST with selectors, resourceVersion semantics and limit/continue pagination over a consistent snapshot.
import type { JsonObject } from '../json.js';
import { stringMapAt } from '../json.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { FieldRequirement } from '../selectors/field-selector.js';
import { matchesFields } from '../selectors/field-selector.js';
import type { LabelRequirement } from '../selectors/label-selector.js';
import { matchesLabels } from '../selectors/label-selector.js';
import type { StatusError } from '../status.js';
import { badRequest, expired, tooLargeResourceVersion } from '../status.js';
import { decodeContinue, encodeContinue } from '../store/continue-token.js';
import type { LeaseStore, Snapshot } from '../store/lease-store.js';
import { splitKey } from '../store/lease-store.js';
import { namespaceRange } from '../store/snapshot.js';
import { metadataOf } from './identity.js';

export const CONTINUE_EXPIRED =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';
export const LIST_RV_EXPIRED = 'The resourceVersion for the provided list is too old.';

export interface Selection {
  namespace: string | undefined;
  labels: LabelRequirement[];
  fields: FieldRequirement[];
}

export interface ListQuery extends Selection {
  limit: number | undefined;
  continueToken: string | undefined;
  resourceVersion: string | undefined;
  resourceVersionMatch: 'NotOlderThan' | 'Exact' | undefined;
}

export interface ListPage {
  rv: number;
  items: JsonObject[];
  continueToken?: string | undefined;
  remainingItemCount?: number | undefined;
}

export function matchesSelection(selection: Selection, obj: JsonObject, key: string): boolean {
  const { namespace, name } = splitKey(key);
  if (selection.namespace !== undefined && namespace !== selection.namespace) return false;
  if (selection.fields.length > 0 && !matchesFields(selection.fields, name, namespace)) return false;
  return selection.labels.length === 0 || matchesLabels(selection.labels, stringMapAt(metadataOf(obj), 'labels'));
}

export function parseResourceVersion(value: string): Result<number, StatusError> {
  if (!/^\d+$/.test(value))
    return err(badRequest(`resourceVersion: Invalid value: ${JSON.stringify(value)}: invalid resource version`));
  return ok(Number(value));
}

function chooseSnapshot(
  store: LeaseStore,
  query: ListQuery,
): Result<{ snapshot: Snapshot; startKey: string | undefined }, StatusError> {
  const prefix = namespaceRange(query.namespace).from;
  if (query.continueToken !== undefined && query.continueToken !== '') {
    if (query.resourceVersion !== undefined && query.resourceVersion !== '' && query.resourceVersion !== '0') {
      return err(badRequest('specifying resource version is not allowed when using continue'));
    }
    const position = decodeContinue(query.continueToken);
    if (!position.ok) return err(badRequest(position.error));
    const startKey = prefix + position.value.start;
    // etcd3/store.go: a negative continueRV lists at the latest resourceVersion (a 410's token carries -1).
    if (position.value.rv < 0) return ok({ snapshot: store.current(), startKey });
    // etcd3/store.go GetList: a token from a revision etcd has not reached is ErrFutureRev, answered as
    // NewTooLargeResourceVersionError(withRev, currentRV, 0): no retry hint.
    if (position.value.rv > store.resourceVersion)
      return err(tooLargeResourceVersion(position.value.rv, store.resourceVersion, 0));
    const at = store.snapshotAt(position.value.rv);
    if (!at.ok) {
      const last = position.value.start.replace(/\u0000$/, '');
      return err(expired(CONTINUE_EXPIRED, encodeContinue(-1, last)));
    }
    return ok({ snapshot: at.snapshot, startKey });
  }
  const rvText = query.resourceVersion ?? '';
  if (rvText === '' || rvText === '0') return ok({ snapshot: store.current(), startKey: undefined });
  const rv = parseResourceVersion(rvText);
  if (!rv.ok) return rv;
  if (rv.value > store.resourceVersion) return err(tooLargeResourceVersion(rv.value, store.resourceVersion));
  if (query.resourceVersionMatch !== 'Exact') return ok({ snapshot: store.current(), startKey: undefined });
  const at = store.snapshotAt(rv.value);
  return at.ok ? ok({ snapshot: at.snapshot, startKey: undefined }) : err(expired(LIST_RV_EXPIRED));
}

/**
 * One page: a continue's pages are all served from the snapshot at the token's resourceVersion, which
 * the first page's snapshot (or one rebuilt once) provides, so a paged LIST of N objects costs O(N)
 * with or without writes in between (the cacher's GetList from a snapshot, ListFromCacheSnapshot).
 */
export function listLeases(store: LeaseStore, query: ListQuery): Result<ListPage, StatusError> {
  const chosen = chooseSnapshot(store, query);
  if (!chosen.ok) return chosen;
  const { snapshot, startKey } = chosen.value;
  const { from: prefix, to: end } = namespaceRange(query.namespace);
  const limit = query.limit !== undefined && query.limit > 0 ? query.limit : Infinity;
  const filtered = query.labels.length > 0 || query.fields.length > 0;
  const items: JsonObject[] = [];
  let lastKey: string | undefined;
  const more = snapshot.scan(startKey ?? prefix, end, (key, obj) => {
    if (items.length >= limit) return false;
    if (matchesSelection(query, obj, key)) {
      items.push(obj);
      lastKey = key;
    }
    return true;
  });
  const page: ListPage = { rv: snapshot.rv, items };
  if (more && lastKey !== undefined) {
    page.continueToken = encodeContinue(snapshot.rv, lastKey.slice(prefix.length));
    if (!filtered) page.remainingItemCount = snapshot.count(`${lastKey}\u0000`, end);
  }
  return ok(page);
}
