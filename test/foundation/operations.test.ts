import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { loggerOptions } from '../../src/platform/logging.js';
import { checkStorage, STORAGE_MARKER } from '../../src/platform/storage.js';
import { openTestDatabase } from '../database.js';
import { bearer, buildTestApp, MemoryMailer, type TestApp } from '../helpers.js';
import { createUser } from '../factories.js';

describe('configuration', () => {
  it('sizes the PostgreSQL pool from DATABASE_POOL_SIZE (10 by default) and refuses 0', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).databasePoolSize).toBe(10);
    expect(loadConfig({ NODE_ENV: 'test', DATABASE_POOL_SIZE: '4' }).databasePoolSize).toBe(4);
    expect(() => loadConfig({ NODE_ENV: 'test', DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE must be at least 1/);
    expect(() => loadConfig({ NODE_ENV: 'test', DATABASE_POOL_SIZE: 'many' })).toThrow(/DATABASE_POOL_SIZE/);
  });

  it('reads METRICS_TOKEN (at least 16 characters) and METRICS_LISTEN (host:port)', () => {
    expect(loadConfig({ NODE_ENV: 'test' })).toMatchObject({ metricsToken: null, metricsListen: null });
    expect(loadConfig({ NODE_ENV: 'test', METRICS_TOKEN: 'scrape-secret-0123456789' }).metricsToken).toBe('scrape-secret-0123456789');
    expect(() => loadConfig({ NODE_ENV: 'test', METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be at least 16 characters/);
    expect(loadConfig({ NODE_ENV: 'test', METRICS_LISTEN: '127.0.0.1:9100' }).metricsListen).toEqual({ host: '127.0.0.1', port: 9100 });
    expect(loadConfig({ NODE_ENV: 'test', METRICS_LISTEN: '[::1]:9100' }).metricsListen).toEqual({ host: '::1', port: 9100 });
    expect(loadConfig({ NODE_ENV: 'test', METRICS_LISTEN: 'metrics.internal:9100' }).metricsListen).toEqual({ host: 'metrics.internal', port: 9100 });
    for (const bad of ['9100', '127.0.0.1', '127.0.0.1:99999', 'host:port', '::1:9100']) {
      expect(() => loadConfig({ NODE_ENV: 'test', METRICS_LISTEN: bad }), bad).toThrow(/METRICS_LISTEN must be host:port/);
    }
  });

  it('holds AMI event listener leases for AMI_EVENTS_LEASE_SECONDS (30 by default) and refuses 0', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).amiEventsLeaseSeconds).toBe(30);
    expect(loadConfig({ NODE_ENV: 'test', AMI_EVENTS_LEASE_SECONDS: '12' }).amiEventsLeaseSeconds).toBe(12);
    expect(() => loadConfig({ NODE_ENV: 'test', AMI_EVENTS_LEASE_SECONDS: '0' })).toThrow(/AMI_EVENTS_LEASE_SECONDS must be at least 1/);
  });
});

describe('health, readiness and metrics', () => {
  let t: TestApp;
  let dataDir: string;
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'pbx-api-ready-'));
    database = await openTestDatabase();
    t = await buildTestApp({ env: { DATA_DIR: dataDir }, database });
  });
  afterAll(async () => {
    await t.close();
    await database.close();
  });

  it('is live and ready once migrated', async () => {
    expect((await t.app.inject('/health')).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject('/ready')).json()).toEqual({ status: 'ready', database: 'ok', migrations: 'ok', storage: 'ok', redis: 'not configured' });
    expect(readFileSync(join(dataDir, 'recordings', STORAGE_MARKER), 'utf8').trim()).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('is not ready on media storage that another instance of its database does not share, or that takes no write', async () => {
    const elsewhere = await buildTestApp({ env: { DATA_DIR: mkdtempSync(join(tmpdir(), 'pbx-api-ready-')) }, database });
    try {
      const answer = await elsewhere.app.inject('/ready');
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toMatchObject({ status: 'not ready', storage: 'not shared' });
    } finally {
      await elsewhere.close();
    }
    const file = join(mkdtempSync(join(tmpdir(), 'pbx-api-ready-')), 'a-file');
    writeFileSync(file, '');
    const unwritable = await buildTestApp({ env: { DATA_DIR: file } });
    try {
      expect((await unwritable.app.inject('/ready')).json()).toMatchObject({ status: 'not ready', storage: 'not writable' });
    } finally {
      await unwritable.close();
    }
    // The same directory, shared: ready.
    const sharing = await buildTestApp({ env: { DATA_DIR: dataDir }, database });
    try {
      expect((await sharing.app.inject('/ready')).statusCode).toBe(200);
    } finally {
      await sharing.close();
    }
  });

  it('counts requests by route and status in Prometheus format', async () => {
    await t.app.inject('/api/v1/me');
    const metrics = await t.app.inject('/metrics');
    expect(metrics.headers['content-type']).toContain('text/plain');
    expect(metrics.body).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/me",status_code="401"\} \d+/);
  });
});

describe('readiness of instances starting together on a fresh database', () => {
  it('never says "not shared" of the storage they share: the first checks agree on one marker', async () => {
    const database = await openTestDatabase();
    try {
      const now = () => new Date().toISOString();
      for (let round = 0; round < 30; round++) {
        await database.db.deleteFrom('settings').where('key', '=', 'storage_id').execute();
        const dataDir = mkdtempSync(join(tmpdir(), 'pbx-api-ready-'));
        // Four instances' first /ready at once, on one database and one shared directory.
        const states = await Promise.all([0, 1, 2, 3].map(() => checkStorage(database.db, dataDir, now)));
        expect(states, `round ${round}`).toEqual(['ok', 'ok', 'ok', 'ok']);
        const recorded = await database.db.selectFrom('settings').select('value').where('key', '=', 'storage_id').executeTakeFirstOrThrow();
        expect(readFileSync(join(dataDir, 'recordings', STORAGE_MARKER), 'utf8').trim()).toBe(recorded.value);
        // And an instance on a directory of its own, at the same moment as the others, is told apart.
        await database.db.deleteFrom('settings').where('key', '=', 'storage_id').execute();
        const [shared, alone] = [mkdtempSync(join(tmpdir(), 'pbx-api-ready-')), mkdtempSync(join(tmpdir(), 'pbx-api-ready-'))];
        const mixed = await Promise.all([shared, shared, alone].map((dir) => checkStorage(database.db, dir, now)));
        expect(mixed.filter((state) => state === 'ok').length, `round ${round}: ${mixed.join(', ')}`).toBeGreaterThanOrEqual(1);
        expect(mixed.filter((state) => state === 'not shared').length, `round ${round}: ${mixed.join(', ')}`).toBeGreaterThanOrEqual(1);
        expect(mixed[0], `round ${round}`).toBe(mixed[1]);
      }
    } finally {
      await database.close();
    }
  });
});

describe('who may read /metrics', () => {
  const METRICS_TOKEN = 'scrape-secret-0123456789abcdef';
  const PRODUCTION = { NODE_ENV: 'production', SECRET_KEY: 'a'.repeat(64) };

  it('with METRICS_TOKEN: a scrape must send it as a bearer token; anything else is 401 {error}', async () => {
    const t = await buildTestApp({ env: { METRICS_TOKEN } });
    try {
      for (const authorization of [undefined, 'Bearer wrong-token', `Bearer ${METRICS_TOKEN}x`, METRICS_TOKEN, `Basic ${METRICS_TOKEN}`]) {
        const response = await t.app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
        expect(response.statusCode, String(authorization)).toBe(401);
        expect(Object.keys(response.json())).toEqual(['error']);
        expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      }
      const scrape = await t.app.inject({ url: '/metrics', headers: bearer(METRICS_TOKEN) });
      expect(scrape.statusCode).toBe(200);
      expect(scrape.body).toContain('http_request_duration_seconds');
    } finally {
      await t.close();
    }
  });

  it('in production without METRICS_TOKEN or METRICS_LISTEN there is no /metrics; with the token there is', async () => {
    const off = await buildTestApp({ env: PRODUCTION });
    try {
      expect((await off.app.inject('/metrics')).statusCode).toBe(404);
    } finally {
      await off.close();
    }
    const guarded = await buildTestApp({ env: { ...PRODUCTION, METRICS_TOKEN } });
    try {
      expect((await guarded.app.inject('/metrics')).statusCode).toBe(401);
      expect((await guarded.app.inject({ url: '/metrics', headers: bearer(METRICS_TOKEN) })).statusCode).toBe(200);
    } finally {
      await guarded.close();
    }
  });

  it('with METRICS_LISTEN: served by a listener of its own (the token still applies), not beside the API', async () => {
    const t = await buildTestApp({ env: { ...PRODUCTION, METRICS_LISTEN: '127.0.0.1:0', METRICS_TOKEN } });
    try {
      await t.app.inject('/api/v1/me');
      expect((await t.app.inject({ url: '/metrics', headers: bearer(METRICS_TOKEN) })).statusCode).toBe(404);
      const server = t.app.metricsServer!;
      await server.listen({ host: '127.0.0.1', port: 0 });
      const { port } = server.server.address() as AddressInfo;
      const refused = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(refused.status).toBe(401);
      expect(Object.keys((await refused.json()) as object)).toEqual(['error']);
      const scrape = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: bearer(METRICS_TOKEN) });
      expect(scrape.status).toBe(200);
      expect(await scrape.text()).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/me",status_code="401"\} 1/);
      expect((await fetch(`http://127.0.0.1:${port}/api/v1/me`)).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});

describe('logs never carry secrets', () => {
  it('redacts passwords, tokens, keys, voicemail PINs and magic-link tokens, in URLs too, at every level', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(chunk.toString());
        callback();
      },
    });
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'trace', DATA_DIR: '/tmp/pbx-api-test' });
    const database = await openTestDatabase();
    const app = await buildApp({ config, database, mailer: new MemoryMailer(), logger: { ...(loggerOptions(config) as object), stream } });
    try {
      const user = await createUser(app.ctx);
      await app.inject({ method: 'POST', url: '/api/v1/login', payload: { email: user.email, password: user.password } });
      await app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(user.token) });
      await app.inject({ method: 'GET', url: '/api/v1/magic-login/SuperSecretMagicToken1234567890' });
      // Clients that put a token in the query string (it is not read there) must not leak it either.
      await app.inject({ method: 'GET', url: `/api/v1/me?access_token=${user.token}&page=1` });
      await app.inject({ method: 'GET', url: `/api/v1/no-such-route?API_KEY=QueryApiKey0987654321&Signature=QuerySignature1234` });
      await app.inject({ method: 'POST', url: `/api/v1/passwordless/verify?code=731946`, payload: { email: user.email, code: '731946' } });
      app.log.info({ password: 'hunter2-password', webrtc: { password: 'sip-pass-123', voicemail_pin: '4711' }, token: user.token }, 'audit');
      app.log.info({ code: '482913', request: { body: { code: '582913' } } }, 'one-time codes');
      // An error's code is what an operator needs to read (Redis or the database unreachable): never redacted.
      app.log.warn({ err: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6390'), { code: 'ECONNREFUSED' }) }, 'Redis unavailable');
      const output = lines.join('');
      expect(output).toContain('"code":"ECONNREFUSED"');
      expect(output).toContain('/magic-login/[REDACTED]');
      expect(output).toContain('/api/v1/me?access_token=[REDACTED]&page=1');
      expect(output).toContain('API_KEY=[REDACTED]&Signature=[REDACTED]');
      for (const secret of [
        user.password,
        user.token,
        'SuperSecretMagicToken1234567890',
        'hunter2-password',
        'sip-pass-123',
        // Digit-only secrets are looked for as values (quoted, or after `=`): bare digits also occur in timestamps.
        '"4711"',
        'QueryApiKey0987654321',
        'QuerySignature1234',
        '"731946"',
        'code=731946',
        '482913',
        '582913',
      ]) {
        expect(output).not.toContain(secret);
      }
      expect(output).toContain('[REDACTED]');
    } finally {
      await app.close();
      await database.close();
    }
  });
});
