import { defineConfig } from 'vitest/config';
import { MissingToolsReporter } from './test/helpers/missing-tools-banner.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    setupFiles: ['test/helpers/yield-between-tests.ts'],
    // Records the suites skipped for a tool this machine lacks, and lists them in one banner at the end.
    globalSetup: ['test/helpers/missing-tools-banner.ts'],
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './test/tsconfig.strictest.json',
    },
    reporters: ['default', new MissingToolsReporter()],
  },
});
