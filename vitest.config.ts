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
  },
  // The banner's reporter is added here rather than under test.reporters, which a `--reporter` on the command
  // line replaces: it comes after whichever reporters the run has.
  plugins: [
    {
      name: 'missing-tools-banner',
      configureVitest({ vitest }) {
        vitest.config.reporters.push(new MissingToolsReporter());
      },
    },
  ],
});
