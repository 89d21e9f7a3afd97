import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { bearer, buildTestApp } from '../helpers.js';

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), 'pbx-cli-'));
// Vitest sets BASE_URL=/ for its own use; the CLI must not inherit it.
const { BASE_URL: _viteBase, ...inherited } = process.env;
const env = { ...inherited, DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '', NODE_ENV: 'development' };

async function cli(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  return cliWith({}, ...args);
}

async function cliWith(extraEnv: NodeJS.ProcessEnv, ...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { env: { ...env, ...extraEnv }, timeout: 60_000 });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

// The CLI works on the configured database; this suite runs it once, on SQLite.
describe.skipIf(process.env.TEST_DB === 'postgres')('pbx-api command line', () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('seed --demo --json prints only JSON, the same JSON twice', async () => {
    const first = await cli('seed', '--demo', '--json');
    expect(first.code).toBe(0);
    const seed = JSON.parse(first.stdout);
    expect(seed.base_url).toMatch(/\/api\/v1$/);
    expect(seed.tenants.length).toBeGreaterThanOrEqual(2);
    for (const tenant of seed.tenants) {
      expect(Object.keys(tenant)).toEqual(
        expect.arrayContaining(['pbx_id', 'name', 'admin', 'users', 'disabled_user', 'pbx_api_key', 'pbx_server_key', 'internal_api_key', 'integration_api_keys', 'samples']),
      );
      expect(tenant.users.length).toBeGreaterThanOrEqual(2);
      expect(tenant.pbx_api_key).toMatch(/^pbxk_/);
      expect(tenant.integration_api_keys.map((k: { scopes: string[] }) => k.scopes)).toEqual([['call-history'], ['phone-numbers']]);
    }
    const second = await cli('seed', '--demo', '--json');
    expect(JSON.parse(second.stdout)).toEqual(seed);
  }, 60_000);

  it('creates a tenant, a user and keys, and revokes a key', async () => {
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
  }, 60_000);

  it('api-key revoke reaches a running server at once through Redis', async () => {
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
  }, 60_000);

  it('exits 2 with a clear message on bad arguments', async () => {
    const cases = [[], ['nonsense'], ['seed'], ['tenant', 'create'], ['api-key', 'create', '--kind', 'root'], ['api-key', 'create', '--kind', 'integration', '--pbx', 'x', '--scopes', 'all'], ['serve', '--bogus']];
    const results = await Promise.all(cases.map((args) => cli(...args)));
    results.forEach((result, i) => expect(result.code, cases[i].join(' ')).toBe(2));
    expect(results[4].stderr).toContain('--kind must be');
  }, 60_000);
});
