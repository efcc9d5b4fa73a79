// The WatchList feature gate per release and the ListOptions defaulting it turns on
// (k8s.io/apiserver/pkg/features/kube_features.go WatchList; apimachinery
// pkg/apis/meta/internalversion/defaults.go SetListOptionsDefaults). Hand-written: Kubernetes' schedule.
import { releaseMinor } from '../release.js';
import type { ListRequest } from './request-options.js';

/** WatchList is on by default in 1.32 (beta), off again in 1.33, and on from 1.34. */
export function watchListEnabled(release: string): boolean {
  const minor = releaseMinor(release);
  return minor === 32 || minor >= 34;
}

/**
 * SetListOptionsDefaults: with the gate on, a watch from no resourceVersion (or "0") that set neither
 * sendInitialEvents nor resourceVersionMatch is a watch-list request (sendInitialEvents=true,
 * NotOlderThan), so with allowWatchBookmarks it ends its initial events with the annotated bookmark.
 */
export function withListDefaults(request: ListRequest, enabled: boolean): ListRequest {
  if (!enabled || !request.watch) return request;
  if (request.sendInitialEvents !== undefined || request.resourceVersionMatch !== undefined) return request;
  const rv = request.resourceVersion ?? '';
  if (rv !== '' && rv !== '0') return request;
  return { ...request, sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' };
}
