// Runs structured-merge-diff test tables (merge/*_test.go TestCase: a sequence of Apply/ForceApply/
// Update operations, then the expected object and managed field sets) against the server's Updater,
// with the Lease schema the server builds from its OpenAPI document.
import { expect } from 'vitest';
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';
import { LEASE_RESOURCE } from '../../../templates/k8s-lease-api-server/src/lease-meta.js';
import { pathToString, sortedPaths } from '../../../templates/k8s-lease-api-server/src/managed/field-set.js';
import { updaterSchema } from '../../../templates/k8s-lease-api-server/src/managed/resource-field-manager.js';
import type { ManagedFields } from '../../../templates/k8s-lease-api-server/src/managed/updater.js';
import { updaterApply, updaterUpdate } from '../../../templates/k8s-lease-api-server/src/managed/updater.js';
import { LEASE_SCHEMA } from './lease-schema.js';

export const LEASE_UPDATER = updaterSchema(LEASE_SCHEMA, LEASE_RESOURCE, 'null');

export type Operation =
  | { op: 'apply' | 'forceApply'; manager: string; object: JsonObject; apiVersion?: string; conflicts?: string[] }
  | { op: 'update'; manager: string; object: JsonObject; apiVersion?: string };

export interface SmdCase {
  /** Upstream file, test function and case name. */
  source: string;
  ops: Operation[];
  object: JsonObject;
  /** Manager → its field set, paths printed as SMD prints them (".spec.holderIdentity"). */
  managed: Record<string, string[]>;
}

const V1 = 'coordination.k8s.io/v1';

/** SMD's State: Live starts as the empty object; an apply that changes nothing keeps it. */
export function runCase(test: SmdCase): void {
  let live: JsonObject = {};
  let managers: ManagedFields = new Map();
  for (const [i, step] of test.ops.entries()) {
    const version = step.apiVersion ?? V1;
    if (step.op === 'update') {
      managers = updaterUpdate(LEASE_UPDATER, live, step.object, version, managers, step.manager);
      live = step.object;
      continue;
    }
    const result = updaterApply(
      LEASE_UPDATER,
      live,
      step.object,
      version,
      managers,
      step.manager,
      step.op === 'forceApply',
    );
    if (!result.ok) {
      const got = result.error.map((c) => `${c.manager}: ${pathToString(c.path)}`);
      expect(got, `operation ${i} conflicts`).toEqual(step.conflicts ?? []);
      continue;
    }
    expect(step.conflicts ?? [], `operation ${i} should have conflicted`).toEqual([]);
    managers = result.value.managers;
    if (result.value.object !== undefined) live = result.value.object;
  }
  expect(live).toEqual(test.object);
  const managed: Record<string, string[]> = {};
  for (const [manager, versioned] of managers) managed[manager] = sortedPaths(versioned.set).map(pathToString);
  const expected: Record<string, string[]> = {};
  for (const [manager, paths] of Object.entries(test.managed)) expected[manager] = [...paths].sort();
  for (const manager of Object.keys(managed)) managed[manager]?.sort();
  expect(managed).toEqual(expected);
}
