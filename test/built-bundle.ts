import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The bundle `npm run build` makes (dist/bundle/), for the tests of the `dist` project
 * (vitest.config.ts) that run it as shipped: the image's command, the package's files, the README.
 *
 * As that project's global setup, this file starts scripts/build-if-stale.mjs in the background,
 * so the other projects' tests start at once instead of after the build; each test file that needs
 * the bundle awaits `builtBundle()` before it starts, which waits for that build (the script's
 * lock) or builds a stale bundle itself, and fails with the build's output.
 */
const BUILD_IF_STALE = fileURLToPath(new URL('../scripts/build-if-stale.mjs', import.meta.url));

/** Long enough for a cold build on a loaded two-core machine (about 25 s when idle). */
export const BUNDLE_BUILD_TIMEOUT_MS = 300_000;

/** Resolves once dist/bundle/ is at least as new as the sources. */
export function builtBundle(): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [BUILD_IF_STALE], { timeout: BUNDLE_BUILD_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) =>
      error ? reject(new Error(`dist/bundle/ could not be built (scripts/build-if-stale.mjs): ${error.message}\n${stderr}`)) : resolve(),
    );
  });
}

/** Vitest global setup of the `dist` project: the build starts; its teardown leaves no build running. */
export default function startBuild(): () => Promise<void> {
  // A failure is reported by the tests that await the bundle.
  const build = builtBundle().catch(() => undefined);
  return () => build;
}
