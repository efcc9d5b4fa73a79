// Suites that drive a program found by external-tools.ts. A missing program skips the suite by name and records
// it for the end-of-run banner (missing-tools-banner.ts); under K8S_LEASE_REQUIRE_TOOLS=1 the suite fails instead,
// with one test saying what is missing. No suite that needs a tool skips silently.
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import type { MissingToolRecord, ToolId } from './external-tools.js';
import { REQUIRE_TOOLS_VARIABLE, TOOLS } from './external-tools.js';
import { PROJECT_ROOT } from './project.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where skipped suites are recorded for the banner (one JSON line each). */
    missingToolsFile: string;
  }
}

const requireTools = (): boolean => process.env[REQUIRE_TOOLS_VARIABLE] === '1';

function record(tool: ToolId, suite: string): void {
  const testPath = expect.getState().testPath ?? 'unknown file';
  const entry: MissingToolRecord = { tool, file: relative(PROJECT_ROOT, testPath), suite };
  appendFileSync(inject('missingToolsFile'), `${JSON.stringify(entry)}\n`);
}

function missingMessage(tool: ToolId): string {
  const info = TOOLS[tool];
  return `${info.name} not found and ${REQUIRE_TOOLS_VARIABLE}=1: set ${info.variable}, or install it: ${info.install}`;
}

/** `describe(name, () => body(found))` when the tool was found; otherwise skipped and bannered, or failed in CI. */
export function describeWithTool<T>(tool: ToolId, found: T | undefined, name: string, body: (found: T) => void): void {
  if (found !== undefined) return void describe(name, () => body(found));
  if (requireTools())
    return void describe(name, () => {
      it(`finds ${TOOLS[tool].name}`, () => {
        throw new Error(missingMessage(tool));
      });
    });
  record(tool, name);
  // vitest collects a skipped suite's body too, and the body needs the tool: a placeholder stands in for it.
  describe.skip(name, () => {
    it(`needs ${TOOLS[tool].name}`, () => undefined);
  });
}

/** `it(name, () => fn(found))` when the tool was found; otherwise skipped and bannered, or failed in CI. */
export function itWithTool<T>(
  tool: ToolId,
  found: T | undefined,
  name: string,
  fn: (found: T) => Promise<void> | void,
  timeout?: number,
): void {
  if (found !== undefined) return void it(name, () => fn(found), timeout);
  if (requireTools())
    return void it(name, () => {
      throw new Error(missingMessage(tool));
    });
  record(tool, name);
  it.skip(name, () => undefined);
}
