#!/usr/bin/env node
// The production build's last step: tsc's output (dist/) bundled into dist/bundle/ with esbuild,
// what `pbx-api` runs. Loading some 1,100 separate modules was most of a start; one bundle (split
// where the code imports lazily: public holidays, the import readers, audio parsing, the line
// diff) starts in about half the time. Left outside: native drivers, pino (its worker transports
// are files of their own) and what loads only when configured (pg, ioredis, nodemailer). The docs
// page's files are read from the swagger-ui package (http/openapi.ts); the live page's, the code
// reads beside itself (`new URL('./<folder>/', import.meta.url)`), so each such folder is copied
// beside tsc's output and beside the bundle's chunks, where that address then points.
import { build } from 'esbuild';
import { cpSync, rmSync, existsSync } from 'node:fs';
import { basename } from 'node:path';

const OUT_DIR = 'dist/bundle';

/** Folders of files the code reads at run time, under src/. */
const FILES = ['src/modules/events/live-page/live-page-files'];

const EXTERNAL = ['better-sqlite3', 'better-sqlite3-node20', '@node-rs/argon2', 'pg', 'pg-native', 'ioredis', 'nodemailer', 'pino', 'pino-pretty'];

// CommonJS packages inside an ES module bundle still call require() and read __dirname.
const COMMONJS_GLOBALS = [
  "import { createRequire as __bundleRequire } from 'node:module';",
  "import { fileURLToPath as __bundlePath } from 'node:url';",
  "import { dirname as __bundleDir } from 'node:path';",
  'const require = __bundleRequire(import.meta.url);',
  'const __filename = __bundlePath(import.meta.url);',
  'const __dirname = __bundleDir(__filename);',
].join(' ');

rmSync(OUT_DIR, { recursive: true, force: true });
await build({
  entryPoints: ['dist/cli.js'],
  outdir: OUT_DIR,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  banner: { js: COMMONJS_GLOBALS },
  logLevel: 'warning',
});
// A folder the sources do not hold is skipped (the command's tests build a one-file fixture); a real
// build without it fails the built server's own test of the live page (test/foundation/live-page-bundle.test.ts).
for (const folder of FILES.filter((folder) => existsSync(folder))) {
  cpSync(folder, folder.replace(/^src\//, 'dist/'), { recursive: true });
  cpSync(folder, `${OUT_DIR}/${basename(folder)}`, { recursive: true });
}
