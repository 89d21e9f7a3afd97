import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The real-Asterisk suite (test/asterisk/, `npm run test:asterisk`): each file starts private
 * Asterisk instances (test/asterisk/harness.ts) on ports of their own, so files run in parallel;
 * an instance waits on its process most of the time, so two workers even on one or two cores.
 * Without an Asterisk (../shared/asterisk/install.sh) the files skip, or fail when CI is set.
 */
/** Where the real-Asterisk tests live; the default projects (vitest.config.ts) leave them out. */
export const ASTERISK_TESTS = 'test/asterisk/**';

export default defineConfig({
  test: {
    name: 'asterisk',
    include: [`${ASTERISK_TESTS}/*.test.ts`],
    env: { TEST_DB: 'sqlite' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
