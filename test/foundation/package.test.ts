import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_BUILD_TIMEOUT_MS, builtBundle } from '../built-bundle.js';

const run = promisify(execFile);

/**
 * What `npm pack` (and so a registry install or an image built from the tarball) ships: the
 * bundled server and its command, nothing of the sources, tests, benchmarks, CI or source maps.
 */
describe('the package', () => {
  beforeAll(builtBundle, BUNDLE_BUILD_TIMEOUT_MS);

  it('holds what runs and nothing else', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { timeout: 60_000 });
    const files = (JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>)[0].files.map((file) => file.path);
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'bin/pbx-api.js']));
    // The start scripts' build check travels too (`npm start` in an unpacked package): without src/ it does nothing.
    // So does the sound-file sync the Asterisk host runs (README, "The operator's Asterisk").
    const shipped = ['package.json', 'README.md', 'bin/pbx-api.js', 'scripts/build-if-stale.mjs', 'scripts/pbx-sounds-sync.mjs'];
    expect(files).toContain('scripts/pbx-sounds-sync.mjs');
    const outside = files.filter((path) => !path.startsWith('dist/') && !shipped.includes(path));
    expect(outside).toEqual([]);
    expect(files.filter((path) => path.endsWith('.map') || path.startsWith('dist/bench/') || /\.test\.js$/.test(path))).toEqual([]);
    // The bundle (built before this file, and by `npm start` when stale) is what the command
    // imports, and all of dist/ it ships: tsc's separate modules stay behind.
    expect(files).toContain('dist/bundle/cli.js');
    expect(files.filter((path) => path.startsWith('dist/') && !path.startsWith('dist/bundle/'))).toEqual([]);
  }, 60_000);
});

/**
 * `npm install` leaves the committed lock file as it is: npm records `hasInstallScript` for every
 * package with an install script or a `binding.gyp` (better-sqlite3 13 has one though it ships its
 * binaries), and a lock file without the mark is rewritten by the first install of a newcomer.
 */
describe('the lock file', () => {
  it('marks every installed package that npm runs an install step for', () => {
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean; optional?: boolean }> };
    const unmarked: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (!path || !existsSync(join(path, 'package.json'))) continue;
      const manifest = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
      const installs = ['preinstall', 'install', 'postinstall'].some((name) => manifest.scripts?.[name]) || existsSync(join(path, 'binding.gyp'));
      if (installs && !entry.hasInstallScript) unmarked.push(path);
    }
    expect(unmarked).toEqual([]);
  });
});
