// The object a BOOKMARK event carries. The watch cache makes it with the resource's NewFunc — an empty object
// of the internal type — and sets only its resourceVersion (pkg/storage/cacher/cacher.go dispatchEvents;
// the initial-events-end annotation in cache_watcher.go), so it is serialised as an empty object of the served
// version would be: spec (no omitempty on the struct) with its non-omitempty fields at their zero values, and
// metadata.creationTimestamp as `null` until apimachinery's omitzero tag (kubernetes#130989, 1.34) dropped it.
import type { JsonObject } from '../json.js';
import type { ResourceInfo } from '../lease-meta.js';
import { releaseMinor } from '../release.js';
import { INITIAL_EVENTS_END_ANNOTATION } from './table.js';

/**
 * An empty spec in the served version: LeaseSpec's fields are all omitempty; LeaseCandidateSpec keeps
 * leaseName (every version) and binaryVersion (omitempty only in v1alpha1) — k8s.io/api/coordination types.go.
 */
function emptySpec(resource: ResourceInfo): JsonObject {
  if (resource.kind === 'Lease') return {};
  return resource.version === 'v1alpha1' ? { leaseName: '' } : { leaseName: '', binaryVersion: '' };
}

/** A bookmark's object at `rv` (stored-shaped: the encoder adds kind and apiVersion), as `release` writes it. */
export function bookmarkObject(
  rv: number,
  initialEventsEnd: boolean,
  resource: ResourceInfo,
  release: string,
): JsonObject {
  const metadata: JsonObject = { resourceVersion: String(rv) };
  // ObjectMeta's field order: creationTimestamp comes after resourceVersion and before annotations.
  if (!(releaseMinor(release) >= 34)) metadata['creationTimestamp'] = null;
  if (initialEventsEnd) metadata['annotations'] = { [INITIAL_EVENTS_END_ANNOTATION]: 'true' };
  return { metadata, spec: emptySpec(resource) };
}
