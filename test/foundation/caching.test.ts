import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/platform/crypto.js';
import { openTestDatabase } from '../database.js';
import { bearer, buildTestApp, type TestApp, useTestApp } from '../helpers.js';
import { createAdmin, createTenant, createUser } from '../factories.js';

const me = (t: TestApp, token: string) => t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(token) });

describe('cached tokens and profiles', () => {
  const t = useTestApp();

  it('refuses a token at once after its logout', async () => {
    const user = await createUser(t.ctx);
    expect((await me(t, user.token)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/logout', headers: bearer(user.token) })).statusCode).toBe(200);
    expect((await me(t, user.token)).statusCode).toBe(401);
  });

  it("refuses a user's token at once after an admin disables the user", async () => {
    const admin = await createAdmin(t.ctx);
    const user = await createUser(t.ctx, { tenant: admin.tenant });
    expect((await me(t, user.token)).statusCode).toBe(200);
    const disabled = await t.app.inject({ method: 'PATCH', url: `/api/v1/users/${user.id}`, headers: bearer(admin.token), payload: { status: 'disabled' } });
    expect(disabled.statusCode).toBe(200);
    expect((await me(t, user.token)).statusCode).toBe(401);
  });

  it('shows a change made through the API in the next profile', async () => {
    const admin = await createAdmin(t.ctx);
    const user = await createUser(t.ctx, { tenant: admin.tenant });
    expect((await me(t, user.token)).json().data.first_name).toBe('Test');
    await t.app.inject({ method: 'PATCH', url: `/api/v1/users/${user.id}`, headers: bearer(admin.token), payload: { first_name: 'Renamed' } });
    expect((await me(t, user.token)).json().data.first_name).toBe('Renamed');
  });

  it('answers each user with their own profile, in every tenant', async () => {
    const a = await createUser(t.ctx);
    const b = await createUser(t.ctx, { tenant: a.tenant });
    const other = await createUser(t.ctx);
    for (let round = 0; round < 2; round++) {
      for (const user of [a, b, other]) {
        const body = (await me(t, user.token)).json();
        expect(body.data.id).toBe(user.id);
        expect(body.data.pbx_id).toBe(user.pbxId);
      }
    }
  });

  it('keeps a refused request from dropping the caches, and a write in one tenant from dropping another', async () => {
    const admin = await createAdmin(t.ctx);
    const other = await createUser(t.ctx);
    await me(t, other.token);
    // Written straight to the database (as the CLI would): only the TTL or a tracked change reveals it.
    await t.ctx.db.updateTable('users').set({ first_name: 'Unseen' }).where('id', '=', other.id).execute();
    await t.app.inject({ method: 'PATCH', url: `/api/v1/users/${admin.id}`, headers: bearer(admin.token), payload: { first_name: 'Admin' } });
    await t.app.inject({ method: 'PATCH', url: `/api/v1/users/${other.id}`, headers: bearer(other.token), payload: { first_name: '' } });
    expect((await me(t, other.token)).json().data.first_name).toBe('Test');
  });

  it('keeps the caches through a stream ticket, a write that changes no token or profile', async () => {
    const user = await createUser(t.ctx);
    await me(t, user.token);
    await t.ctx.db.updateTable('users').set({ first_name: 'Unseen' }).where('id', '=', user.id).execute();
    const ticket = await t.app.inject({ method: 'POST', url: '/api/v1/events/tickets', headers: bearer(user.token) });
    expect(ticket.statusCode, ticket.body).toBe(201);
    expect((await me(t, user.token)).json().data.first_name).toBe('Test');
  });

  it('sees changes made out of sight (another process) once the cache TTL has passed', async () => {
    const user = await createUser(t.ctx);
    await me(t, user.token);
    await t.ctx.db.updateTable('users').set({ first_name: 'Outside' }).where('id', '=', user.id).execute();
    await t.ctx.db.updateTable('access_tokens').set({ revoked_at: t.clock.now().toISOString() }).where('token_hash', '=', sha256(user.token)).execute();
    const within = await me(t, user.token);
    expect(within.statusCode).toBe(200);
    expect(within.json().data.first_name).toBe('Test');
    t.clock.advance(t.ctx.config.cacheTtlMs / 1000);
    expect((await me(t, user.token)).statusCode).toBe(401);
  });

  it('refuses a cached token once it expires', async () => {
    const user = await createUser(t.ctx); // the factory's tokens live an hour
    expect((await me(t, user.token)).statusCode).toBe(200);
    t.clock.advance(3_600);
    expect((await me(t, user.token)).statusCode).toBe(401);
  });
});

describe('CACHE_TTL_MS=0', () => {
  it('reads every token and profile from the database', async () => {
    const t = await buildTestApp({ env: { CACHE_TTL_MS: '0' } });
    try {
      const user = await createUser(t.ctx);
      await me(t, user.token);
      await t.ctx.db.updateTable('users').set({ first_name: 'Direct' }).where('id', '=', user.id).execute();
      expect((await me(t, user.token)).json().data.first_name).toBe('Direct');
    } finally {
      await t.close();
    }
  });
});

describe('caches of several instances, through Redis', () => {
  const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

  it('never serves another instance a cached read older than a write it answered', async () => {
    const database = await openTestDatabase();
    const env = { REDIS_URL, REDIS_KEY_PREFIX: `test:${randomBytes(4).toString('hex')}:` };
    const a = await buildTestApp({ env, database });
    const b = await buildTestApp({ env, database, clock: a.clock });
    try {
      const tenant = await createTenant(a.ctx);
      const admin = await createAdmin(a.ctx, tenant);
      const user = await createUser(a.ctx, { tenant });
      const patch = (app: TestApp, body: object) =>
        app.app.inject({ method: 'PATCH', url: `/api/v1/users/${user.id}`, headers: bearer(admin.token), payload: body });
      // Each round: b caches the profile, a writes, b reads at once (no waiting for pub/sub).
      for (let round = 0; round < 25; round++) {
        const [writer, reader] = round % 2 === 0 ? [a, b] : [b, a];
        expect((await me(reader, user.token)).statusCode).toBe(200);
        expect((await patch(writer, { first_name: `Round ${round}` })).statusCode).toBe(200);
        expect((await me(reader, user.token)).json().data.first_name).toBe(`Round ${round}`);
      }
      // A disabled user, a logout and a revoked key are refused on the other instance's very next request.
      const disabled = await createUser(a.ctx, { tenant });
      expect((await me(b, disabled.token)).statusCode).toBe(200);
      await a.app.inject({ method: 'PATCH', url: `/api/v1/users/${disabled.id}`, headers: bearer(admin.token), payload: { status: 'disabled' } });
      expect((await me(b, disabled.token)).statusCode).toBe(401);
      for (let round = 0; round < 10; round++) {
        const session = await createUser(a.ctx, { tenant });
        expect((await me(b, session.token)).statusCode).toBe(200);
        await a.app.inject({ method: 'POST', url: '/api/v1/logout', headers: bearer(session.token) });
        expect((await me(b, session.token)).statusCode).toBe(401);
      }
      const key = await a.app.inject({
        method: 'POST',
        url: '/api/v1/integrations/api-keys',
        headers: bearer(admin.token),
        payload: { name: 'Shared', scopes: ['contacts'] },
      });
      const { id, token } = key.json().data as { id: string; token: string };
      const contacts = (app: TestApp) => app.app.inject({ method: 'GET', url: '/api/v1/contacts', headers: bearer(token) });
      expect((await contacts(b)).statusCode).toBe(200);
      await a.app.inject({ method: 'DELETE', url: `/api/v1/integrations/api-keys/${id}`, headers: bearer(admin.token) });
      expect((await contacts(b)).statusCode).toBe(401);
    } finally {
      await a.close();
      await b.close();
      await database.close();
    }
  });
});
