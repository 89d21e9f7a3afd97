import { defineConfig } from 'vitest/config';

/**
 * Every suite runs on SQLite; when TEST_DATABASE_URL is set it runs again on PostgreSQL
 * (each test file in its own database, cloned from a template migrated once per run, so files run in parallel).
 */
const shared = { include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 20_000, hookTimeout: 60_000 };

export default defineConfig({
  test: {
    projects: [
      { test: { ...shared, name: 'sqlite', env: { TEST_DB: 'sqlite' } } },
      ...(process.env.TEST_DATABASE_URL ? [{ test: { ...shared, name: 'postgres', env: { TEST_DB: 'postgres' }, globalSetup: ['test/postgres-template.ts'] } }] : []),
    ],
  },
});
