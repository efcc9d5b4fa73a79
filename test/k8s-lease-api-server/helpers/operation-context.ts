// An OperationContext for the Lease over a fresh store, for tests that drive operations without a server.
import { LEASE_RESOURCE } from '../../../templates/k8s-lease-api-server/src/lease-meta.js';
import { NamespaceRegistry } from '../../../templates/k8s-lease-api-server/src/namespaces/namespace-registry.js';
import { fallbackOpenApi } from '../../../templates/k8s-lease-api-server/src/openapi/fallback-openapi.js';
import type { OperationContext } from '../../../templates/k8s-lease-api-server/src/operations/context.js';
import { buildLeaseSchema } from '../../../templates/k8s-lease-api-server/src/schema/field-schema.js';
import { LeaseStore } from '../../../templates/k8s-lease-api-server/src/store/lease-store.js';

/** The Lease's operations over an empty store, its clock fixed at 2024-05-01T10:00:00Z; nothing validated. */
export function context(): OperationContext {
  const schema = buildLeaseSchema(fallbackOpenApi());
  if (schema === undefined) throw new Error('the built-in OpenAPI document lacks the Lease schema');
  const now = () => Date.parse('2024-05-01T10:00:00Z');
  return {
    store: new LeaseStore(100),
    schema,
    now,
    namespaces: new NamespaceRegistry(now, []),
    resource: LEASE_RESOURCE,
    validate: () => [],
    // The newest releases' structured-merge-diff (v6.3.2+): an emptied map stays as {}.
    emptiedContainers: 'empty',
    valueStyle: 'json',
  };
}
