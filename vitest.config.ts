import { defineConfig } from 'vitest/config';

// Three tiers (DESIGN.md section 9): pure unit tests, the embedded profile (SQLite, memory, files),
// and the stack tier against the real servers that deploy/local/up.sh starts.
export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['{core,services,projections,gateway,cli,test}/**/*.test.ts'],
          exclude: ['**/*.embedded.test.ts', '**/*.stack.test.ts', '**/node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'embedded',
          include: ['**/*.embedded.test.ts'],
          exclude: ['**/node_modules/**'],
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'stack',
          include: ['**/*.stack.test.ts'],
          exclude: ['**/node_modules/**'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Stack suites share one Kafka broker and ClickHouse server on a 2-core machine.
          fileParallelism: false,
        },
      },
    ],
  },
});
