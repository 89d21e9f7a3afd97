import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../database.js';
import { bearer, buildTestApp, type TestApp } from '../helpers.js';
import { createKey, createTenant, createUser } from '../factories.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const stores = [
  { name: 'memory', env: {} as NodeJS.ProcessEnv },
  { name: 'redis', env: { REDIS_URL } as NodeJS.ProcessEnv },
];

describe.each(stores)('rate limits ($name store)', ({ env }) => {
  const apps: TestApp[] = [];
  const build = async (prefix: string, perMinute = 120) => {
    const t = await buildTestApp({ env: { ...env, REDIS_KEY_PREFIX: prefix, RATE_LIMIT_PER_MINUTE: String(perMinute) } });
    apps.push(t);
    return t;
  };
  afterAll(async () => {
    for (const t of apps) await t.close();
  });

  it('reports X-RateLimit-* and the IETF draft fields on every response, errors included', async () => {
    const t = await build(`test:${randomBytes(4).toString('hex')}:`);
    const user = await createUser(t.ctx);
    const ok = await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(user.token) });
    expect(ok.headers['x-ratelimit-limit']).toBe('120');
    expect(ok.headers['x-ratelimit-remaining']).toBe('119');
    expect(ok.headers['ratelimit-policy']).toBe('"default";q=120;w=60');
    expect(ok.headers.ratelimit).toMatch(/^"default";r=119;t=\d+$/);
    const unauthenticated = await t.app.inject({ method: 'GET', url: '/api/v1/me' });
    expect(unauthenticated.statusCode).toBe(401);
    expect(unauthenticated.headers['x-ratelimit-remaining']).toBeDefined();
    const invalid = await t.app.inject({ method: 'POST', url: '/api/v1/login', payload: {} });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.headers['x-ratelimit-limit']).toBeDefined();
    // The answers given before a handler runs count and carry the headers too.
    const early = [
      await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: { ...bearer(user.token), accept: 'application/xml' } }),
      await t.app.inject({ method: 'POST', url: '/api/v1/login', headers: { 'content-type': 'text/plain' }, payload: 'x' }),
      await t.app.inject({ method: 'POST', url: '/api/v1/login', headers: { 'content-type': 'application/json' }, payload: '{' }),
      await t.app.inject({ method: 'GET', url: '/api/v1/no-such-route', headers: bearer(user.token) }),
    ];
    expect(early.map((response) => response.statusCode)).toEqual([406, 415, 422, 404]);
    for (const response of early) {
      expect(response.headers['x-ratelimit-limit'], `${response.statusCode}`).toBe('120');
      expect(response.headers['x-ratelimit-remaining'], `${response.statusCode}`).toBeDefined();
      expect(response.headers['x-request-id'], `${response.statusCode}`).toBeDefined();
    }
  });

  it('never counts health and readiness checks: a load balancer polling two instances from one address', async () => {
    // Two instances of one database, on one shared data folder, one Redis when there is one.
    const database = await openTestDatabase();
    const shared = {
      ...env,
      REDIS_KEY_PREFIX: `test:${randomBytes(4).toString('hex')}:`,
      RATE_LIMIT_PER_MINUTE: '5',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'pbx-api-lb-')),
    };
    const [a, b] = [await buildTestApp({ env: shared, database }), await buildTestApp({ env: shared, database })];
    try {
      const remoteAddress = '10.7.7.7';
      const statuses = new Set<number>();
      for (let i = 0; i < 40; i++) {
        for (const t of [a, b]) {
          for (const url of ['/ready', '/health']) {
            const response = await t.app.inject({ method: i % 2 ? 'GET' : 'HEAD', url, remoteAddress });
            statuses.add(response.statusCode);
            expect(response.headers['x-ratelimit-limit'], url).toBeUndefined();
          }
        }
      }
      expect([...statuses]).toEqual([200]);
      // Nor did they use up the address's budget for anything else.
      const other = await a.app.inject({ method: 'GET', url: '/api/v1/me', remoteAddress });
      expect(other.statusCode).toBe(401);
      expect(other.headers['x-ratelimit-remaining']).toBe('4');
    } finally {
      await a.close();
      await b.close();
      await database.close();
    }
  });

  it("uses the PBX plan's limit per principal, then answers 429 with Retry-After", async () => {
    const t = await build(`test:${randomBytes(4).toString('hex')}:`);
    const tenant = await createTenant(t.ctx, { rateLimitPerMinute: 3 });
    const key = await createKey(t.ctx, tenant, 'pbx');
    const user = await createUser(t.ctx, { tenant });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(user.token) })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(user.token) });
    expect(limited.headers['x-ratelimit-limit']).toBe('3');
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toEqual({ message: expect.any(String) });
    // Another principal of the same PBX has its own budget.
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(key) })).statusCode).toBe(403);
  });

  it('counts a user once, whatever token it uses: logging in again starts no fresh budget', async () => {
    const t = await build(`test:${randomBytes(4).toString('hex')}:`);
    const tenant = await createTenant(t.ctx, { rateLimitPerMinute: 4 });
    const user = await createUser(t.ctx, { tenant });
    const login = async () => {
      const response = await t.app.inject({ method: 'POST', url: '/api/v1/login', payload: { email: user.email, password: user.password } });
      expect(response.statusCode).toBe(200);
      return response.json<{ data: { token: string } }>().data.token;
    };
    const tokens = [await login(), await login(), user.token];
    const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(token) });
    const statuses: number[] = [];
    for (const token of [...tokens, ...tokens]) statuses.push((await me(token)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    // Another user of the PBX, and each API key, count on their own.
    expect((await me((await createUser(t.ctx, { tenant })).token)).headers['x-ratelimit-remaining']).toBe('3');
    const [pbxKey, otherKey] = [await createKey(t.ctx, tenant, 'pbx'), await createKey(t.ctx, tenant, 'pbx')];
    for (let i = 0; i < 4; i++) expect((await me(pbxKey)).statusCode).toBe(403);
    expect((await me(pbxKey)).statusCode).toBe(429);
    expect((await me(otherKey)).headers['x-ratelimit-remaining']).toBe('3');
  });
});

describe('rate limits in memory', () => {
  it('keep counting a client while thousands of others come and go', async () => {
    const t = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '2' } });
    try {
      const hit = (remoteAddress: string) => t.app.inject({ method: 'GET', url: '/api/v1/no-such-route', remoteAddress });
      expect((await hit('10.1.0.1')).statusCode).toBe(404);
      expect((await hit('10.1.0.1')).statusCode).toBe(404);
      // More clients than the store's default of 5,000 would keep: the first one must not be forgotten.
      for (let i = 0; i < 5_100; i++) await hit(`10.2.${Math.floor(i / 250)}.${i % 250}`);
      const limited = await hit('10.1.0.1');
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    } finally {
      await t.close();
    }
  });
});

describe('rate limits shared across instances through Redis', () => {
  it('two app instances count against one budget', async () => {
    const prefix = `test:${randomBytes(4).toString('hex')}:`;
    const a = await buildTestApp({ env: { REDIS_URL, REDIS_KEY_PREFIX: prefix, RATE_LIMIT_PER_MINUTE: '4' } });
    const b = await buildTestApp({ env: { REDIS_URL, REDIS_KEY_PREFIX: prefix, RATE_LIMIT_PER_MINUTE: '4' } });
    try {
      // Unauthenticated requests count against the client address, the same for both instances here.
      const statuses: number[] = [];
      for (const t of [a, b, a, b, a]) statuses.push((await t.app.inject({ method: 'GET', url: '/api/v1/me', remoteAddress: '10.9.9.9' })).statusCode);
      expect(statuses).toEqual([401, 401, 401, 401, 429]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
