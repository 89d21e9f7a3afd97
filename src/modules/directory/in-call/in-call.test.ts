import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../../app.js';
import { bearer, buildTestApp, type TestApp } from '../../../../test/helpers.js';
import { createKey, createUser } from '../../../../test/factories.js';
import { issueUserToken } from '../../../platform/auth/tokens.js';

describe('in-call state', () => {
  let t: TestApp;
  let second: App;
  beforeAll(async () => {
    t = await buildTestApp();
    // A second server instance on the same database and clock: the state must be shared.
    second = await buildApp({
      config: t.ctx.config,
      database: { db: t.ctx.db, dialect: t.ctx.dialect, close: async () => undefined },
      clock: t.clock,
      mailer: t.mailer,
    });
    await second.ready();
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  it('reads false with null timestamps before any report', async () => {
    const user = await createUser(t.ctx);
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/in-call', headers: bearer(user.token) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { user_id: user.id, in_call: false, in_call_updated_at: null, expires_at: null, ttl_seconds: 3600 } });
  });

  it('holds a report across instances for ttl_seconds, then reverts to false', async () => {
    const user = await createUser(t.ctx);
    const reportedAt = t.clock.now().toISOString();
    const report = await t.app.inject({ method: 'POST', url: '/api/v1/in-call', headers: bearer(user.token), payload: { in_call: true } });
    expect(report.statusCode).toBe(200);
    const expiresAt = new Date(t.clock.now().getTime() + 3600_000).toISOString();
    expect(report.json().data).toEqual({ user_id: user.id, in_call: true, in_call_updated_at: reportedAt, expires_at: expiresAt, ttl_seconds: 3600 });

    t.clock.advance(3599);
    const elsewhere = await second.inject({ method: 'GET', url: '/api/v1/in-call', headers: bearer(user.token) });
    expect(elsewhere.json().data).toMatchObject({ in_call: true, expires_at: expiresAt });

    t.clock.advance(1);
    // The test token lived exactly one hour too, so read with a fresh one.
    const fresh = await issueUserToken(t.ctx.db, t.clock, { id: user.id, pbx_id: user.pbxId }, { name: 'test', ttlSeconds: 3600 });
    const expired = await second.inject({ method: 'GET', url: '/api/v1/in-call', headers: bearer(fresh) });
    expect(expired.json().data).toEqual({ user_id: user.id, in_call: false, in_call_updated_at: null, expires_at: null, ttl_seconds: 3600 });
  });

  it('a new report refreshes the window; a custom ttl is honoured', async () => {
    const user = await createUser(t.ctx);
    await t.app.inject({ method: 'POST', url: '/api/v1/in-call', headers: bearer(user.token), payload: { in_call: true, ttl_seconds: 60 } });
    t.clock.advance(50);
    await second.inject({ method: 'POST', url: '/api/v1/in-call', headers: bearer(user.token), payload: { in_call: true, ttl_seconds: 60 } });
    t.clock.advance(50);
    const still = await t.app.inject({ method: 'GET', url: '/api/v1/in-call', headers: bearer(user.token) });
    expect(still.json().data).toMatchObject({ in_call: true, ttl_seconds: 60 });
    t.clock.advance(10);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/in-call', headers: bearer(user.token) })).json().data.in_call).toBe(false);
  });

  it('validates the body (422) and is only for the token\u2019s own user (API keys 403)', async () => {
    const user = await createUser(t.ctx);
    const invalid = await t.app.inject({
      method: 'POST',
      url: '/api/v1/in-call',
      headers: bearer(user.token),
      payload: { in_call: 'yes', ttl_seconds: 0, user_id: user.id },
    });
    expect(invalid.statusCode).toBe(422);
    expect(Object.keys(invalid.json().errors).sort()).toEqual(['in_call', 'ttl_seconds', 'user_id']);
    const other = await createUser(t.ctx, { tenant: user.tenant });
    await t.app.inject({ method: 'POST', url: '/api/v1/in-call', headers: bearer(other.token), payload: { in_call: true } });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/in-call', headers: bearer(user.token) })).json().data.in_call).toBe(false);
    const pbxKey = await createKey(t.ctx, user.tenant, 'pbx');
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/in-call', headers: bearer(pbxKey), payload: { in_call: true } })).statusCode).toBe(403);
  });
});
