#!/usr/bin/env node
// The `pbx-api` command. A file of its own, kept executable in git, so that no build step (tsc
// writes dist/ without the executable bit) can leave `npx pbx-api` unrunnable.
// In a clone (src/ beside it) it first builds a missing or stale bundle when TypeScript is
// installed, and otherwise says in one line what to run; the image and an installed package ship
// no src/, and only check that the bundle is there.
import { existsSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';

const bundle = new URL('../dist/bundle/cli.js', import.meta.url);
const sources = new URL('../src', import.meta.url);

if (existsSync(sources) || !existsSync(bundle)) {
  const { buildIfStale } = await import('../scripts/build-if-stale.mjs').catch(() => ({
    buildIfStale: () => 'dist/bundle/cli.js is missing: reinstall the package, or build it where src/ is (npm run build).',
  }));
  const problem = buildIfStale();
  if (problem) {
    process.stderr.write(`pbx-api: ${problem}\n`);
    process.exit(1);
  }
}
await import(bundle.href);
