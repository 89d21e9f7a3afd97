#!/usr/bin/env node
// Compiles when dist/ is missing or older than the sources, for `npm start`, `npm test` and the
// `pbx-api` command itself (bin/pbx-api.js): a newcomer's `npm install && npx pbx-api serve` needs
// no build step of its own, and an edited src/ is never run from a stale bundle. Where TypeScript
// (a dev dependency) is missing, as after `npm ci --omit=dev` in a clone, it says in one line what
// to run. An installed package or the image ships no src/: there nothing is checked.
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { URL, fileURLToPath } from 'node:url';

/** The package's own folder, wherever the command was started from. */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUTPUT = 'dist/bundle/cli.js';
const INPUTS = ['src', 'tsconfig.json', 'tsconfig.build.json', 'scripts/bundle.mjs'];
/** Held while one process builds, so two commands started together do not build over each other. */
const LOCK = 'dist/.build-lock';

/** The newest modification time under a path; test files are not part of the build. */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return path.endsWith('.test.ts') ? 0 : stat.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs);
}

function isStale(root) {
  const output = join(root, OUTPUT);
  const built = existsSync(output) ? statSync(output).mtimeMs : 0;
  const inputs = INPUTS.map((path) => join(root, path)).filter((path) => existsSync(path));
  return built < Math.max(...inputs.map(newest));
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Whether the process that wrote the lock is still running (a build killed half-way leaves its lock behind). */
function lockHolderAlive(lock) {
  let pid;
  try {
    pid = Number(readFileSync(lock, 'utf8'));
  } catch {
    return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function withBuildLock(root, work) {
  const lock = join(root, LOCK);
  mkdirSync(join(root, 'dist'), { recursive: true });
  let said = false;
  for (;;) {
    try {
      const fd = openSync(lock, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      if (!lockHolderAlive(lock)) {
        rmSync(lock, { force: true });
        continue;
      }
      if (!said) console.error('Another command is compiling: waiting for it...');
      said = true;
      sleep(250);
    }
  }
  try {
    return work();
  } finally {
    rmSync(lock, { force: true });
  }
}

/**
 * Builds `root` when its bundle is missing or older than its sources. Returns null when the bundle
 * is there and current, or a one-line message saying why it is not (the build's own output, on
 * stderr, says more). Compiler output goes to stderr, so a command's stdout stays its own.
 */
export function buildIfStale(root = ROOT) {
  if (!existsSync(join(root, 'src'))) {
    return existsSync(join(root, OUTPUT))
      ? null
      : `${OUTPUT} is missing and there are no sources to build it from: reinstall the package, or build it where src/ is (npm run build).`;
  }
  if (!isStale(root)) return null;
  let tsc;
  try {
    tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    const state = existsSync(join(root, OUTPUT)) ? 'is older than src/' : 'is missing';
    return `${OUTPUT} ${state}, and TypeScript (a dev dependency) is not installed to build it: run \`npm ci\` (or \`npm install\`), then \`npm run build\`.`;
  }
  return withBuildLock(root, () => {
    // Another process may have built while this one waited for the lock.
    if (!isStale(root)) return null;
    console.error(existsSync(join(root, OUTPUT)) ? 'src/ changed since the last build: compiling...' : 'First start: compiling...');
    // What `npm run build` does: tsc, then the bundle the command runs (scripts/bundle.mjs).
    for (const args of [[tsc, '-p', 'tsconfig.build.json'], ['scripts/bundle.mjs']]) {
      const result = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 2, 2] });
      if (result.status !== 0) return `the build failed (${args[0] === tsc ? 'tsc' : 'scripts/bundle.mjs'}, output above): fix it, then run \`npm run build\`.`;
    }
    return null;
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problem = buildIfStale();
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}
