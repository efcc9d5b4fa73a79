// The Status answers of core/v1 namespaces, worded as apimachinery's errors package words them for the
// core group's "namespaces" (api.Resource("namespaces")): the group is empty, so it is left out.
import type { ResourceInfo } from '../lease-meta.js';
import { GROUP } from '../lease-meta.js';
import type { StatusCause, StatusError } from '../status.js';

export const NAMESPACE_RESOURCE = 'namespaces';

function details(name: string): { name: string; kind: string } {
  return { name, kind: NAMESPACE_RESOURCE };
}

/** errors.NewNotFound(v1.Resource("namespaces"), name). */
export function namespaceNotFound(name: string): StatusError {
  return {
    code: 404,
    reason: 'NotFound',
    message: `namespaces ${JSON.stringify(name)} not found`,
    details: details(name),
  };
}

/**
 * errors.NewAlreadyExists; Store.Create prefixes "object is being deleted: " when the existing object
 * carries a deletionTimestamp (a namespace still terminating).
 */
export function namespaceAlreadyExists(name: string, terminating = false): StatusError {
  const message = `namespaces ${JSON.stringify(name)} already exists`;
  return {
    code: 409,
    reason: 'AlreadyExists',
    message: terminating ? `object is being deleted: ${message}` : message,
    details: details(name),
  };
}

/** errors.NewConflict(api.Resource("namespaces"), name, why), as REST.Delete's precondition checks build it. */
export function namespaceConflict(name: string, why: string): StatusError {
  return {
    code: 409,
    reason: 'Conflict',
    message: `Operation cannot be fulfilled on namespaces ${JSON.stringify(name)}: ${why}`,
    details: details(name),
  };
}

/** The lifecycle admission plugin's refusal to delete default, kube-system or kube-public. */
export function namespaceImmortal(name: string): StatusError {
  return {
    code: 403,
    reason: 'Forbidden',
    message: `namespaces ${JSON.stringify(name)} is forbidden: this namespace may not be deleted`,
    details: details(name),
  };
}

/**
 * The lifecycle admission plugin's refusal of a create into a terminating namespace: admission.NewForbidden
 * (the object's name, else its generateName, else "Unknown") with the NamespaceTerminating cause.
 */
export function namespaceTerminating(
  namespace: string,
  name: string,
  resource: Pick<ResourceInfo, 'plural' | 'qualifiedResource'>,
): StatusError {
  const cause: StatusCause = {
    reason: 'NamespaceTerminating',
    message: `namespace ${namespace} is being terminated`,
    field: 'metadata.namespace',
  };
  return {
    code: 403,
    reason: 'Forbidden',
    message: `${resource.qualifiedResource} ${JSON.stringify(name)} is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`,
    details: { name, group: GROUP, kind: resource.plural, causes: [cause] },
  };
}
