import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { ASTERISK_TESTS } from './vitest.asterisk.config.js';

/**
 * Every suite runs on SQLite; when TEST_DATABASE_URL is set it runs again on PostgreSQL
 * (each test file in its own database, cloned from a template migrated once per run, so files run in parallel).
 *
 * Files share their worker's module graph (`isolate: false`): importing the app's modules, and
 * compiling its schemas, once per worker rather than once per file. Each file still builds its
 * own apps on its own database; no test changes process-wide state (no mocks, stubbed globals or
 * environment changes).
 *
 * The tests that run the built bundle (dist/bundle/: the image's command, the package, the live
 * page's files, the README's commands) are the `dist` project, once, on SQLite: its global setup
 * starts the build in the background (test/built-bundle.ts) and those files wait for it, so no
 * other test waits for a build.
 *
 * test/asterisk/ needs a real Asterisk: it runs on its own, `npm run test:asterisk` (vitest.asterisk.config.ts).
 */
const DIST_TESTS = [
  'test/foundation/deploy.test.ts',
  'test/foundation/package.test.ts',
  'test/foundation/readme-commands.test.ts',
  'test/foundation/live-page-bundle.test.ts',
];

const shared = {
  include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
  exclude: [...configDefaults.exclude, ASTERISK_TESTS, ...DIST_TESTS],
  testTimeout: 20_000,
  hookTimeout: 60_000,
  isolate: false,
};

export default defineConfig({
  test: {
    // Vitest's default leaves a core idle (one worker on two cores), while much of a test's time
    // is spent waiting on PostgreSQL, Redis and spawned processes.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { test: { ...shared, name: 'sqlite', env: { TEST_DB: 'sqlite' } } },
      {
        test: {
          ...shared,
          include: DIST_TESTS,
          exclude: configDefaults.exclude,
          name: 'dist',
          env: { TEST_DB: 'sqlite' },
          globalSetup: ['test/built-bundle.ts'],
        },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [{ test: { ...shared, name: 'postgres', env: { TEST_DB: 'postgres' }, globalSetup: ['test/postgres-template.ts'] } }]
        : []),
    ],
  },
});
