#!/usr/bin/env node
// `npm start` and `npm test` compile first when dist/ is missing or older than the sources, so a
// newcomer's `npm install && npm start` needs no build step of its own, while `npm ci --omit=dev`
// (a production image) installs without TypeScript: there the image's dist/ is what runs and
// src/ is not shipped, so nothing is checked.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const OUTPUT = 'dist/bundle/cli.js';
const INPUTS = ['src', 'tsconfig.json', 'tsconfig.build.json', 'scripts/bundle.mjs'];

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs);
}

if (!existsSync('src')) process.exit(0);
const built = existsSync(OUTPUT) ? statSync(OUTPUT).mtimeMs : 0;
const changed = Math.max(...INPUTS.filter((path) => existsSync(path)).map(newest));
if (built >= changed) process.exit(0);

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  console.error(`${OUTPUT} is missing or older than src/, and TypeScript (a dev dependency) is not installed: run \`npm ci\` and \`npm run build\`.`);
  process.exit(1);
}
console.error(existsSync(OUTPUT) ? 'src/ changed since the last build: compiling...' : 'First start: compiling...');
// What `npm run build` does: tsc, then the bundle the command runs (scripts/bundle.mjs).
for (const args of [[tsc, '-p', 'tsconfig.build.json'], ['scripts/bundle.mjs']]) {
  const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
