import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { bearer, buildTestApp } from '../helpers.js';

const run = promisify(execFile);
// Each command starts the CLI from the sources (tsx): a few seconds apiece, many more on a loaded two-core machine.
// Vitest sets BASE_URL=/ for its own use; the CLI must not inherit it.
const { BASE_URL: _viteBase, ...inherited } = process.env;
const dataDirs: string[] = [];

interface CliResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** The CLI on a data directory of its own, so on an SQLite database of its own. */
function workspace() {
  const dataDir = mkdtempSync(join(tmpdir(), 'pbx-cli-'));
  dataDirs.push(dataDir);
  const env = { ...inherited, DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '', NODE_ENV: 'development' };
  async function cliWith(extraEnv: NodeJS.ProcessEnv, ...args: string[]): Promise<CliResult> {
    return cliIn(process.cwd(), { ...env, ...extraEnv }, ...args);
  }
  return { dataDir, cliWith, cli: (...args: string[]) => cliWith({}, ...args) };
}

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const CLI = resolve('src/cli.ts');

/** The CLI from the sources, started in any folder. */
async function cliIn(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', TSX, CLI, ...args], { cwd, env, timeout: 120_000 });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

// The CLI works on the configured database; this suite runs it once, on SQLite. Each test has a
// database of its own, so the tests (a dozen CLI processes, seconds of start-up) run side by side.
describe.skipIf(process.env.TEST_DB === 'postgres')('pbx-api command line', { concurrent: true }, () => {
  afterAll(() => {
    for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
  });

  it('the package bin runs as npx runs it: executed itself, not through node', async ({ expect }) => {
    const { dataDir } = workspace();
    const bin = (JSON.parse(readFileSync('package.json', 'utf8')) as { bin: Record<string, string> }).bin['pbx-api'];
    expect(statSync(bin).mode & 0o111, `${bin} is executable`).not.toBe(0);
    const { stdout } = await run(bin, ['migrate'], { env: { ...inherited, DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '' }, timeout: 120_000 });
    expect(stdout).toMatch(/^Applied: 0001_foundation/);
  }, 180_000);

  it('seed --demo --json prints only JSON, the same JSON twice', async ({ expect }) => {
    const { cli } = workspace();
    const first = await cli('seed', '--demo', '--json');
    expect(first.code).toBe(0);
    const seed = JSON.parse(first.stdout);
    expect(seed.base_url).toMatch(/\/api\/v1$/);
    expect(seed.tenants.length).toBeGreaterThanOrEqual(2);
    for (const tenant of seed.tenants) {
      expect(Object.keys(tenant)).toEqual(
        expect.arrayContaining([
          'pbx_id',
          'name',
          'admin',
          'users',
          'disabled_user',
          'pbx_api_key',
          'pbx_server_key',
          'internal_api_key',
          'integration_api_keys',
          'samples',
        ]),
      );
      expect(tenant.users.length).toBeGreaterThanOrEqual(2);
      expect(tenant.pbx_api_key).toMatch(/^pbxk_/);
      expect(tenant.integration_api_keys.map((k: { scopes: string[] }) => k.scopes)).toEqual([['call-history'], ['phone-numbers']]);
    }
    const second = await cli('seed', '--demo', '--json');
    expect(JSON.parse(second.stdout)).toEqual(seed);
  }, 180_000);

  it('creates a tenant, a user and keys, and revokes a key', async ({ expect }) => {
    const { cli } = workspace();
    const tenant = JSON.parse((await cli('tenant', 'create', '--name', 'CLI Corp', '--country', 'fr')).stdout);
    expect(tenant).toMatchObject({ name: 'CLI Corp', country_code: 'FR' });
    const user = await cli('user', 'create', '--pbx', tenant.id, '--email', 'Cli.Admin@Example.test', '--password', 'long-enough-pw', '--role', 'admin');
    expect(user.code).toBe(0);
    expect(JSON.parse(user.stdout).email).toBe('cli.admin@example.test');
    const duplicate = await cli('user', 'create', '--pbx', tenant.id, '--email', 'cli.admin@example.test');
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr).toContain('already exists');
    const key = JSON.parse((await cli('api-key', 'create', '--kind', 'integration', '--pbx', tenant.id, '--scopes', 'contacts,call-history')).stdout);
    expect(key.token).toMatch(/^pbxi_/);
    expect((await cli('api-key', 'revoke', key.token)).code).toBe(0);
    expect((await cli('api-key', 'revoke', key.token)).code).toBe(2);
    // An internal key serving every PBX is asked for explicitly, and marked.
    const wide = JSON.parse((await cli('api-key', 'create', '--kind', 'internal', '--operator-wide', '--name', 'WebRTC gateway')).stdout);
    expect(wide).toMatchObject({
      kind: 'internal',
      pbx_id: null,
      operator_wide: true,
      name: '[operator-wide] WebRTC gateway',
      token: expect.stringMatching(/^pbxn_/),
    });
  }, 180_000);

  it('api-key revoke reaches a running server at once through Redis', async ({ expect }) => {
    const { cli, cliWith, dataDir } = workspace();
    const redis = { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', REDIS_KEY_PREFIX: `test:${randomBytes(4).toString('hex')}:` };
    const tenant = JSON.parse((await cli('tenant', 'create', '--name', 'Cached Corp')).stdout);
    const key = JSON.parse((await cli('api-key', 'create', '--kind', 'pbx', '--pbx', tenant.id)).stdout);
    const database = openDatabase({ sqlitePath: join(dataDir, 'pbx-api.sqlite') });
    const server = await buildTestApp({ database, env: redis });
    try {
      const lookup = () => server.app.inject({ method: 'GET', url: '/api/v1/contacts/lookup?number=%2B35220000000', headers: bearer(key.token) });
      expect((await lookup()).statusCode).toBe(200);
      const revoked = await cliWith(redis, 'api-key', 'revoke', key.id);
      expect(revoked.stdout).toBe('Revoked.\n');
      await expect.poll(async () => (await lookup()).statusCode, { timeout: 2_000, interval: 20 }).toBe(401);
    } finally {
      await server.close();
      await database.close();
    }
  }, 180_000);

  it('exits 2 with a clear message on bad arguments', async ({ expect }) => {
    const { cli, dataDir } = workspace();
    // These run side by side, and three of them open the database: it is migrated first (as the
    // other tests' commands left it when they ran one after another), not by three at once.
    const database = openDatabase({ sqlitePath: join(dataDir, 'pbx-api.sqlite') });
    await migrateToLatest(database.db);
    await database.close();
    const cases = [
      [],
      ['nonsense'],
      ['seed'],
      ['tenant', 'create'],
      ['api-key', 'create', '--kind', 'root'],
      ['api-key', 'create', '--kind', 'integration', '--pbx', 'x', '--scopes', 'all'],
      ['serve', '--bogus'],
      ['api-key', 'create', '--kind', 'internal'],
    ];
    const results = await Promise.all(cases.map((args) => cli(...args)));
    results.forEach((result, i) => expect(result.code, cases[i].join(' ')).toBe(2));
    expect(results[4].stderr).toContain('--kind must be');
    // An internal key names its PBX, or says it serves every PBX.
    expect(results[7].stderr).toContain('--operator-wide');
  }, 180_000);

  it('each command has its own help; --version prints the version', async ({ expect }) => {
    const { cli } = workspace();
    const [overview, serve, user, group, viaHelp, version] = await Promise.all([
      cli('--help'),
      cli('serve', '--help'),
      cli('user', 'create', '--help'),
      cli('api-key', '--help'),
      cli('help', 'seed'),
      cli('--version'),
    ]);
    for (const result of [overview, serve, user, group, viaHelp, version]) expect(result.code).toBe(0);
    expect(overview.stdout).toMatch(/^Usage: pbx-api <command> \[options\]/);
    expect(serve.stdout).toMatch(/^Usage: pbx-api serve\n\nMigrate, seed demo data/);
    expect(user.stdout).toMatch(/^Usage: pbx-api user create --pbx PBX_ID --email EMAIL/);
    expect(user.stdout).toContain('magic link');
    expect(user.stdout).not.toContain('api-key');
    expect(group.stdout).toMatch(/^Usage: pbx-api api-key <create\|list\|revoke>/);
    expect(viaHelp.stdout).toMatch(/^Usage: pbx-api seed --demo \[--json\]/);
    expect(version.stdout).toBe(`${(JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version}\n`);
    expect(version.stderr).toBe('');
  }, 180_000);

  it('names an unknown command or option plainly, with the closest command', async ({ expect }) => {
    const { cli } = workspace();
    const [bogus, typo, sub, group, option, value] = await Promise.all([
      cli('bogus'),
      cli('sevre'),
      cli('user', 'creat'),
      cli('user'),
      cli('serve', '--bogus'),
      cli('migrate', '--email', 'a@b.cd'),
    ]);
    for (const result of [bogus, typo, sub, group, option, value]) expect(result.code).toBe(2);
    const first = (result: CliResult) => result.stderr.split('\n')[0];
    expect(first(bogus)).toBe('pbx-api: unknown command "bogus"; the commands are serve, migrate, seed, openapi, asyncapi, tenant, user, api-key');
    expect(first(typo)).toBe('pbx-api: unknown command "sevre"; did you mean "serve"?');
    expect(first(sub)).toBe('pbx-api: unknown command "user creat"; did you mean "user create"?');
    expect(first(group)).toBe('pbx-api: user needs a sub-command: create');
    expect(first(option)).toBe('pbx-api: unknown option --bogus');
    expect(option.stderr).toContain('Usage: pbx-api serve\n');
    expect(first(value)).toBe('pbx-api: migrate does not take --email');
  }, 180_000);

  it('says which database and data folder a command works on, on stderr, from any folder', async ({ expect }) => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'pbx-cli-cwd-'));
    dataDirs.push(elsewhere);
    // No DATA_DIR nor SQLITE_PATH: the data folder is ./data of the folder the command runs in.
    const env: NodeJS.ProcessEnv = { ...inherited, LOG_LEVEL: 'silent', DATABASE_URL: '', NODE_ENV: 'development' };
    delete env.DATA_DIR;
    delete env.SQLITE_PATH;
    const seeded = await cliIn(elsewhere, env, 'seed', '--demo', '--json');
    expect(seeded.code).toBe(0);
    expect(seeded.stderr.split('\n')[0]).toBe(`pbx-api: SQLite database ${join(elsewhere, 'data', 'pbx-api.sqlite')} (data folder ${join(elsewhere, 'data')})`);
    expect(JSON.parse(seeded.stdout).tenants).toHaveLength(2);
    const postgres = await cliIn(elsewhere, { ...env, DATABASE_URL: 'postgres://pbx:hunter2@127.0.0.1:1/pbx_nowhere' }, 'migrate');
    expect(postgres.code).toBe(1);
    expect(postgres.stderr.split('\n')[0]).toBe(`pbx-api: PostgreSQL database "pbx_nowhere" on 127.0.0.1:1 as pbx (data folder ${join(elsewhere, 'data')})`);
    expect(postgres.stderr).not.toContain('hunter2');
  }, 180_000);

  it('user create without --password says how the user signs in', async ({ expect }) => {
    const { cli } = workspace();
    const tenant = JSON.parse((await cli('tenant', 'create', '--name', 'Passwordless Corp')).stdout);
    const without = await cli('user', 'create', '--pbx', tenant.id, '--email', 'nopw@example.test');
    expect(without.code).toBe(0);
    const user = JSON.parse(without.stdout);
    expect(user.email).toBe('nopw@example.test');
    const notice = without.stderr.split('\n')[1];
    expect(notice).toMatch(/^pbx-api: nopw@example\.test has no password: the user signs in with a magic link \(POST \/magic-link\) or a one-time code/);
    expect(notice).toContain(`PATCH /users/${user.id}`);
    const withPassword = await cli('user', 'create', '--pbx', tenant.id, '--email', 'pw@example.test', '--password', 'long-enough-pw');
    expect(withPassword.stderr).not.toContain('no password');
    const short = await cli('user', 'create', '--pbx', tenant.id, '--email', 'short@example.test', '--password', 'abc');
    expect(short.code).toBe(2);
    expect(short.stderr.split('\n')[1]).toBe('pbx-api: --password must be 8 to 255 characters');
  }, 180_000);
});
