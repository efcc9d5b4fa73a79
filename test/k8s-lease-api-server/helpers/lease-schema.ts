// The Lease's field tree as the server builds it from the packaged fallback OpenAPI document.
import { fallbackOpenApi } from '../../../templates/k8s-lease-api-server/src/openapi/fallback-openapi.js';
import {
  type ObjectSchema,
  buildLeaseSchema,
} from '../../../templates/k8s-lease-api-server/src/schema/field-schema.js';

function fallbackLeaseSchema(): ObjectSchema {
  const schema = buildLeaseSchema(fallbackOpenApi());
  if (schema === undefined) throw new Error('the fallback OpenAPI document describes no Lease');
  return schema;
}

/** The Lease schema of the fallback document (built once per test file). */
export const LEASE_SCHEMA: ObjectSchema = fallbackLeaseSchema();
