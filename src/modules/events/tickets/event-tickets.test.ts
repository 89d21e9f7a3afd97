import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSse } from '../../../../test/event-stream-clients.js';
import { createAdmin, createKey, createTenant, createUser } from '../../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers.js';
import { revokeUserToken } from '../../../platform/auth/tokens.js';
import { sha256 } from '../../../platform/crypto.js';
import { defineEventKind, type Audience } from '../../../platform/events/index.js';

const knocked = defineEventKind({
  kind: 'test_tickets.knocked',
  subject: 'door',
  description: 'Someone knocked (tests).',
  data: Type.Object({ n: Type.Integer() }),
  pbxKey: true,
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('POST /events/tickets, and streams opened with a ticket', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1`;
  });
  afterAll(() => t.close());

  const knock = (pbxId: string, n: number, audience: Audience = { scope: 'tenant' }) =>
    t.ctx.events.publish(t.ctx.db, { pbxId, kind: knocked, subject: { type: 'door', id: `d${n}` }, audience, data: { n } });

  async function ticketFor(token: string, authorization = `Bearer ${token}`) {
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/events/tickets', headers: { authorization } });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ data: { ticket: string; expires_at: string } }>().data;
  }

  it('issues a ticket valid 30 seconds, not cached, stored only as its digest', async () => {
    const admin = await createAdmin(t.ctx);
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/events/tickets', headers: bearer(admin.token) });
    expect(response.statusCode).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    const { data } = response.json<{ data: { ticket: string; expires_at: string } }>();
    expect(data).toEqual({ ticket: expect.stringMatching(/^tkt_[A-Za-z0-9_-]{32}$/), expires_at: new Date(t.clock.nowMs() + 30_000).toISOString() });
    const stored = await t.ctx.db.selectFrom('event_tickets').selectAll().where('pbx_id', '=', admin.pbxId).execute();
    expect(stored).toEqual([expect.objectContaining({ ticket_hash: sha256(data.ticket), credential_kind: 'user', principal_id: expect.any(String) })]);
    expect(JSON.stringify(stored)).not.toContain(data.ticket);
    expect(JSON.stringify(stored)).not.toContain(admin.token);
  });

  it('opens a stream once: a second use is refused', async () => {
    const admin = await createAdmin(t.ctx);
    const { ticket } = await ticketFor(admin.token);
    const stream = await openSse(`${base}/events/stream?ticket=${ticket}`);
    expect(stream.status).toBe(200);
    await knock(admin.pbxId, 1);
    expect(JSON.parse((await stream.count(1))[0].data!)).toMatchObject({ id: '1', tenant: admin.pbxId });
    stream.close();
    const again = await openSse(`${base}/events/stream?ticket=${ticket}`);
    expect(again.status).toBe(401);
    expect(JSON.parse(again.body)).toEqual({ error: 'Unknown, used or expired ticket: ask POST /events/tickets for a new one.' });
    expect(await t.ctx.db.selectFrom('event_tickets').select('ticket_hash').where('ticket_hash', '=', sha256(ticket)).execute()).toEqual([]);
  });

  it('is used up by one of two requests racing with it', async () => {
    const admin = await createAdmin(t.ctx);
    const { ticket } = await ticketFor(admin.token);
    const [a, b] = await Promise.all([openSse(`${base}/events/stream?ticket=${ticket}`), openSse(`${base}/events/stream?ticket=${ticket}`)]);
    expect([a.status, b.status].sort()).toEqual([200, 401]);
    a.close();
    b.close();
  });

  it('expires after 30 seconds (by the clock), and expired ones are cleared when the next is issued', async () => {
    const admin = await createAdmin(t.ctx);
    const { ticket } = await ticketFor(admin.token);
    t.clock.advance(30);
    expect((await openSse(`${base}/events/stream?ticket=${ticket}`)).status).toBe(401);
    const stale = await ticketFor(admin.token);
    t.clock.advance(31);
    const fresh = await ticketFor(admin.token);
    const left = await t.ctx.db.selectFrom('event_tickets').select('ticket_hash').where('pbx_id', '=', admin.pbxId).execute();
    expect(left.map((row) => row.ticket_hash)).toEqual([sha256(fresh.ticket)]);
    expect(stale.ticket).not.toBe(fresh.ticket);
    t.clock.advance(29);
    const stream = await openSse(`${base}/events/stream?ticket=${fresh.ticket}`);
    expect(stream.status).toBe(200);
    stream.close();
  });

  it('stands for the principal that asked: its audience, and only while its credential is valid', async () => {
    const tenant = await createTenant(t.ctx);
    const user = await createUser(t.ctx, { tenant });
    const other = await createUser(t.ctx, { tenant });
    const pbxKey = await createKey(t.ctx, tenant, 'pbx');
    const asUser = await openSse(`${base}/events/stream?ticket=${(await ticketFor(user.token)).ticket}`);
    const asKey = await openSse(`${base}/events/stream?ticket=${(await ticketFor(pbxKey)).ticket}`);
    await knock(tenant.pbxId, 1, { scope: 'users', userIds: [other.id] });
    await knock(tenant.pbxId, 2, { scope: 'users', userIds: [user.id] });
    await knock(tenant.pbxId, 3, { scope: 'admins' });
    await asKey.count(3);
    await asUser.count(1);
    await sleep(100);
    expect(asUser.ids()).toEqual([2]);
    expect(asKey.ids()).toEqual([1, 2, 3]);
    asUser.close();
    asKey.close();

    // A token revoked after its ticket was issued: the ticket is refused.
    const revoked = await createUser(t.ctx, { tenant });
    const { ticket } = await ticketFor(revoked.token);
    const token = await t.ctx.db.selectFrom('access_tokens').select('id').where('user_id', '=', revoked.id).executeTakeFirstOrThrow();
    await revokeUserToken(t.ctx.db, t.clock, token.id);
    expect((await openSse(`${base}/events/stream?ticket=${ticket}`)).status).toBe(401);
  });

  it('refuses a token in the URL, wherever in the query, and a ticket beside a header', async () => {
    const admin = await createAdmin(t.ctx);
    for (const query of [`ticket=${admin.token}`, `access_token=${admin.token}`, `token=${admin.token}&kinds=test_tickets.knocked`]) {
      const response = await t.app.inject({ method: 'GET', url: `/api/v1/events/stream?${query}` });
      expect(response.statusCode, query).toBe(401);
      expect(response.json<{ error: string }>().error).toMatch(/^A token in the URL is refused/);
    }
    // Even beside a valid header.
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/events/stream?access_token=${admin.token}`, headers: bearer(admin.token) })).statusCode).toBe(
      401,
    );
    const { ticket } = await ticketFor(admin.token);
    const both = await t.app.inject({ method: 'GET', url: `/api/v1/events/stream?ticket=${ticket}`, headers: bearer(admin.token) });
    expect(both.statusCode).toBe(401);
    expect(both.json()).toEqual({ error: 'Send the Authorization header or a ticket, not both.' });
    // Not a ticket's shape: refused without a lookup.
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/events/stream?ticket=abc' })).statusCode).toBe(401);
  });

  it('is issued to every principal that may stream, not to internal keys nor without a token', async () => {
    const tenant = await createTenant(t.ctx);
    for (const kind of ['pbx', 'pbx_server'] as const) await ticketFor(await createKey(t.ctx, tenant, kind));
    await ticketFor(await createKey(t.ctx, tenant, 'integration', ['contacts']));
    const internal = await createKey(t.ctx, tenant, 'internal');
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/events/tickets', headers: { authorization: internal } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/events/tickets' })).statusCode).toBe(401);
    // A ticket opens streams only: it is no credential for asking another.
    const admin = await createAdmin(t.ctx, tenant);
    const { ticket } = await ticketFor(admin.token);
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/events/tickets?ticket=${ticket}` })).statusCode).toBe(401);
  });
});
