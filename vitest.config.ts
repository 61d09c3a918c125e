import { defineConfig } from 'vitest/config';

/**
 * Three projects: `unit` (next to the code, no I/O), `integration` (per service, against the real Postgres, NATS and
 * Redis), `e2e` (the whole suite started like `npm start`, driven over HTTP, git and ssh). `@cairn/*` packages resolve
 * to their TypeScript sources through the `cairn-source` export condition, so tests need no build of the libraries.
 */
// Only our own condition: adding `import` here would make Node load pg-pool's ESM build, which breaks `pg`.
const conditions = ['cairn-source'];

export default defineConfig({
  ssr: { resolve: { conditions, externalConditions: conditions } },
  test: {
    setupFiles: ['test/support/setup-reflect.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['apps/*/src/**/*.spec.ts', 'libs/*/src/**/*.spec.ts', 'tools/**/*.spec.ts', 'deploy/**/*.spec.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['apps/*/src/**/*.int-spec.ts', 'libs/*/src/**/*.int-spec.ts', 'tools/**/*.int-spec.ts', 'deploy/**/*.int-spec.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Two cores: keep the number of databases, NATS servers and git processes in flight modest.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.e2e-spec.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
          // Files that only use the suite share one per set of settings (`sharedTestSuite`, DEVELOPMENT.md); the
          // coordinator that starts and stops them lives here, in the main process, for the whole run.
          globalSetup: ['test/support/shared-suites.ts'],
          // Suites mostly wait on I/O: two files at a time use two cores better than one.
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
