import { execFile, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `npx pbx-api` in a clone: the command builds a missing or stale bundle when the dev dependencies
 * are there, and says in one line what to run when they are not (once an ERR_MODULE_NOT_FOUND
 * stack trace, or a stale dist/ run silently). Each case is a small clone of its own: the real
 * bin/ and scripts/, the real TypeScript configuration and, where the dev dependencies are
 * "installed", this checkout's node_modules; its src/ is one file, so a build takes seconds.
 */
const REPO = resolve('.');
const folders: string[] = [];

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

function runIn(cwd: string, file: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Result> {
  return new Promise((done) => {
    execFile(file, args, { cwd, env, timeout: 120_000 }, (error, stdout, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }));
  });
}

function write(path: string, text: string, mtime?: Date): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  if (mtime) utimesSync(path, mtime, mtime);
}

/** A clone as `git clone` leaves it, then `npm install` (devDependencies: true) or `npm ci --omit=dev`, or an installed package (no src/). */
function clone(options: { sources: boolean; devDependencies: boolean }): string {
  const root = mkdtempSync(join(tmpdir(), 'pbx-bin-'));
  folders.push(root);
  for (const file of ['package.json', 'bin/pbx-api.js', 'scripts/build-if-stale.mjs', 'scripts/bundle.mjs', 'tsconfig.json', 'tsconfig.build.json']) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    copyFileSync(join(REPO, file), join(root, file));
  }
  chmodSync(join(root, 'bin/pbx-api.js'), 0o755);
  if (options.sources) write(join(root, 'src/cli.ts'), "process.stdout.write(`fixture v1 ${process.argv.slice(2).join(' ')}\\n`);\n");
  // Without the dev dependencies, no node_modules at all: the command needs none before the bundle runs.
  if (options.devDependencies) symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'), 'dir');
  return root;
}

/** The command as npx runs it: the bin executed itself, from another folder than the clone. */
const pbxApi = (root: string, ...args: string[]) => runIn(tmpdir(), join(root, 'bin/pbx-api.js'), args);

const COMPILING = /compiling\.\.\./g;

afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe.skipIf(process.env.TEST_DB === 'postgres')('the pbx-api command in a clone', { concurrent: true }, () => {
  it('after npm install, builds the missing dist/ itself, rebuilds a stale one once for commands started together, and keeps stdout its own', async ({
    expect,
  }) => {
    const root = clone({ sources: true, devDependencies: true });
    const first = await pbxApi(root, 'migrate');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe('fixture v1 migrate\n');
    expect(first.stderr).toContain('First start: compiling...');

    // An edited source: the next commands run the new code, and only one of them builds it.
    write(join(root, 'src/cli.ts'), "process.stdout.write('fixture v2\\n');\n");
    const together = await Promise.all([pbxApi(root, 'serve'), pbxApi(root, 'seed')]);
    for (const result of together) {
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('fixture v2\n');
    }
    expect(together.flatMap((result) => result.stderr.match(COMPILING) ?? [])).toEqual(['compiling...']);

    const fresh = await pbxApi(root, '--version');
    expect(fresh).toMatchObject({ code: 0, stdout: 'fixture v2\n', stderr: '' });
  }, 240_000);

  it('after npm ci --omit=dev, says in one line what to run, dist/ missing or stale', async ({ expect }) => {
    const root = clone({ sources: true, devDependencies: false });
    const missing = await pbxApi(root, 'serve');
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe(
      'pbx-api: dist/bundle/cli.js is missing, and TypeScript (a dev dependency) is not installed to build it: run `npm ci` (or `npm install`), then `npm run build`.\n',
    );

    write(join(root, 'dist/bundle/cli.js'), "process.stdout.write('stale\\n');\n", new Date(Date.now() - 60_000));
    const stale = await pbxApi(root, 'serve');
    expect(stale.code).toBe(1);
    expect(stale.stdout).toBe('');
    expect(stale.stderr).toMatch(/^pbx-api: dist\/bundle\/cli\.js is older than src\/, and TypeScript .* `npm run build`\.\n$/);
  }, 60_000);

  it('as an installed package (no src/), runs the bundle it ships, or says it is incomplete', async ({ expect }) => {
    const root = clone({ sources: false, devDependencies: false });
    const incomplete = await pbxApi(root, 'serve');
    expect(incomplete.code).toBe(1);
    expect(incomplete.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(incomplete.stderr).toMatch(/^pbx-api: dist\/bundle\/cli\.js is missing .*reinstall the package/);

    write(join(root, 'dist/bundle/cli.js'), "process.stdout.write('shipped\\n');\n", new Date(0));
    expect(await pbxApi(root, 'serve')).toMatchObject({ code: 0, stdout: 'shipped\n', stderr: '' });
  }, 60_000);
});

function freePort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** The README's lines for a production start on PostgreSQL, as written. */
function readmeProductionLines(): string {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('\n## Running on PostgreSQL and Redis'));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('no sh block under "Running on PostgreSQL and Redis"');
  return block[1];
}

const testServer = process.env.TEST_DATABASE_URL ? new URL(process.env.TEST_DATABASE_URL) : null;
// The lines name the server CI and this machine run (postgres@127.0.0.1:5432); only the database is made new.
const sameServer = testServer?.hostname === '127.0.0.1' && (testServer.port || '5432') === '5432' && testServer.username === 'postgres';

describe.runIf(process.env.TEST_DB === 'postgres' && sameServer)("the README's production start on PostgreSQL", () => {
  it('works as written on a new database: createdb, migrate, then serve in production answers /ready', async () => {
    const database = `pbx_readme_${randomBytes(4).toString('hex')}`;
    const lines = readmeProductionLines();
    expect(lines).toContain('createdb -h 127.0.0.1 -U postgres pbx ');
    expect(lines).toContain('postgres://postgres@127.0.0.1:5432/pbx ');
    const script = lines
      .replace('createdb -h 127.0.0.1 -U postgres pbx ', `createdb -h 127.0.0.1 -U postgres ${database} `)
      .replace('postgres://postgres@127.0.0.1:5432/pbx ', `postgres://postgres@127.0.0.1:5432/${database} `);
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'pbx-readme-'));
    folders.push(dataDir);
    // Vitest's own BASE_URL (/) stays out; the port, data folder and Redis key prefix are this test's.
    const { BASE_URL: _vitestBase, DATABASE_URL: _database, ...inherited } = process.env;
    const env = { ...inherited, PORT: String(port), DATA_DIR: dataDir, REDIS_KEY_PREFIX: `readme-${database}:`, LOG_FORMAT: 'json', NODE_ENV: '' };
    const shell = spawn('bash', ['-euc', script], { cwd: REPO, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    shell.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    shell.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise((done) => shell.on('exit', done));
    try {
      let ready = 0;
      for (const start = Date.now(); ready !== 200 && shell.exitCode === null && Date.now() - start < 240_000;) {
        await new Promise((done) => setTimeout(done, 500));
        ready = await fetch(`http://127.0.0.1:${port}/ready`).then(
          (response) => response.status,
          () => 0,
        );
      }
      expect(ready, `${stdout}\n${stderr}`).toBe(200);
      expect(stdout).toMatch(/^Applied: 0001_foundation/m);
      expect(stderr).toContain(`pbx-api: PostgreSQL database "${database}" on 127.0.0.1:5432 as postgres`);
      const logs = stdout.split('\n').filter((line) => line.startsWith('{'));
      expect(logs.some((line) => line.includes('on postgres'))).toBe(true);
    } finally {
      if (shell.exitCode === null) process.kill(-shell.pid!, 'SIGTERM');
      await exited;
      await runIn(REPO, 'dropdb', ['-h', '127.0.0.1', '-U', 'postgres', '--if-exists', '--force', database]);
    }
  }, 300_000);
});
