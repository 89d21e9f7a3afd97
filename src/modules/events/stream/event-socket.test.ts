import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSocket } from '../../../../test/event-stream-clients.js';
import { createAdmin, createKey, createTenant, createUser } from '../../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers.js';
import type { Config } from '../../../config.js';
import { defineEventKind, type Audience } from '../../../platform/events/index.js';

/** Kinds of this test only, so it depends on no domain's producers. */
const rang = defineEventKind({
  kind: 'test_socket.rang',
  subject: 'bell',
  description: 'A bell rang (tests).',
  data: Type.Object({ n: Type.Integer(), pad: Type.Optional(Type.String()) }),
  pbxKey: true,
});
const muted = defineEventKind({
  kind: 'test_socket.muted',
  subject: 'bell',
  description: 'A bell was muted (tests).',
  data: Type.Object({ n: Type.Integer() }),
  pbxKey: false,
});

const STREAM_LIMITS: Config['eventStream'] = { heartbeatMs: 60_000, maxMs: 600_000, backlogEvents: 1000, backlogBytes: 1024 * 1024 };

async function listening(limits: Partial<Config['eventStream']> = {}) {
  const t = await buildTestApp({ config: { eventStream: { ...STREAM_LIMITS, ...limits } } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as AddressInfo).port;
  return { t, ws: `ws://127.0.0.1:${port}/api/v1/events/socket`, http: `http://127.0.0.1:${port}/api/v1` };
}

function ring(t: TestApp, pbxId: string, n: number, options: { kind?: typeof rang | typeof muted; audience?: Audience; id?: string } = {}) {
  return t.ctx.events.publish(t.ctx.db, {
    pbxId,
    kind: (options.kind ?? rang).kind,
    subject: { type: 'bell', id: options.id ?? `b${n}` },
    audience: options.audience ?? { scope: 'tenant' },
    data: { n },
  });
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('GET /events/socket (WebSocket)', () => {
  let t: TestApp;
  let ws: string;
  let http: string;

  beforeAll(async () => {
    ({ t, ws, http } = await listening());
  });
  afterAll(() => t.close());

  it('sends each event as a JSON text message, in order, and resumes by last_event_id with exactly the missed ones', async () => {
    const admin = await createAdmin(t.ctx);
    const socket = await openSocket(ws, bearer(admin.token));
    for (let n = 1; n <= 3; n++) await ring(t, admin.pbxId, n);
    const messages = await socket.count(3);
    expect(messages[0]).toEqual({
      id: '1',
      kind: 'test_socket.rang',
      time: t.clock.now().toISOString(),
      tenant: admin.pbxId,
      subject: { type: 'bell', id: 'b1' },
      data: { n: 1 },
    });
    expect(socket.ids()).toEqual([1, 2, 3]);
    socket.close();
    await socket.closing();
    for (let n = 4; n <= 6; n++) await ring(t, admin.pbxId, n);
    const resumed = await openSocket(`${ws}?last_event_id=3`, bearer(admin.token));
    await resumed.count(3);
    await ring(t, admin.pbxId, 7);
    await resumed.count(4);
    await sleep(50);
    expect(resumed.ids()).toEqual([4, 5, 6, 7]);
    resumed.close();
  });

  it('sends a reset message for an id this PBX never gave, then live events', async () => {
    const admin = await createAdmin(t.ctx);
    await ring(t, admin.pbxId, 1);
    const socket = await openSocket(`${ws}?last_event_id=40`, bearer(admin.token));
    await ring(t, admin.pbxId, 2);
    const [reset, event] = await socket.count(2);
    expect(reset).toEqual({ id: '1', kind: 'reset', data: { reason: expect.stringContaining('reload the state') } });
    expect(event).toMatchObject({ id: '2', kind: 'test_socket.rang' });
    socket.close();
  });

  it('filters by kind and subject, and sends each principal only what it may receive', async () => {
    const tenant = await createTenant(t.ctx);
    const admin = await createAdmin(t.ctx, tenant);
    const user = await createUser(t.ctx, { tenant });
    const pbxKey = await createKey(t.ctx, tenant, 'pbx');
    const sockets = {
      muted: await openSocket(`${ws}?kinds=test_socket.muted`, bearer(admin.token)),
      b2: await openSocket(`${ws}?subject=bell:b2`, bearer(admin.token)),
      user: await openSocket(ws, bearer(user.token)),
      pbx: await openSocket(ws, bearer(pbxKey)),
      admin: await openSocket(ws, bearer(admin.token)),
    };
    await ring(t, tenant.pbxId, 1);
    await ring(t, tenant.pbxId, 2, { kind: muted, id: 'm2' });
    await ring(t, tenant.pbxId, 3, { audience: { scope: 'admins' } });
    await ring(t, tenant.pbxId, 4, { id: 'b2', audience: { scope: 'users', userIds: [user.id] } });
    await sockets.admin.count(4);
    await sleep(100);
    expect(Object.fromEntries(Object.entries(sockets).map(([name, socket]) => [name, socket.ids()]))).toEqual({
      muted: [2],
      b2: [4],
      user: [1, 2, 4],
      pbx: [1, 3, 4],
      admin: [1, 2, 3, 4],
    });
    for (const socket of Object.values(sockets)) socket.close();
  });

  it('refuses before the upgrade, as HTTP: no credentials 401, a token in the URL 401, unknown kinds 422', async () => {
    const admin = await createAdmin(t.ctx);
    await expect(openSocket(ws)).rejects.toMatchObject({ status: 401 });
    const inUrl = await openSocket(`${ws}?access_token=${admin.token}`).catch((error: { status: number; body: string }) => error);
    expect(inUrl).toMatchObject({ status: 401 });
    expect(JSON.parse((inUrl as { body: string }).body).error).toMatch(/token in the URL is refused/);
    const unknown = await openSocket(`${ws}?kinds=nope.nothing`, bearer(admin.token)).catch((error: { status: number; body: string }) => error);
    expect(unknown).toMatchObject({ status: 422 });
    expect(JSON.parse((unknown as { body: string }).body).errors).toEqual({ kinds: ['No event kind is called nope.nothing.'] });
  });

  it('opens with a ticket (used up), for browsers', async () => {
    const admin = await createAdmin(t.ctx);
    const issued = await t.app.inject({ method: 'POST', url: '/api/v1/events/tickets', headers: bearer(admin.token) });
    const { ticket } = issued.json<{ data: { ticket: string } }>().data;
    const socket = await openSocket(`${ws}?ticket=${ticket}`);
    await ring(t, admin.pbxId, 1);
    expect((await socket.count(1))[0]).toMatchObject({ id: '1', tenant: admin.pbxId });
    socket.close();
    await expect(openSocket(`${ws}?ticket=${ticket}`)).rejects.toMatchObject({ status: 401 });
  });

  it('answers a request that asks no upgrade with 426', async () => {
    const admin = await createAdmin(t.ctx);
    const response = await fetch(`${http}/events/socket`, { headers: bearer(admin.token) });
    expect(response.status).toBe(426);
    expect(response.headers.get('upgrade')).toBe('websocket');
    expect(await response.json()).toEqual({ message: expect.stringContaining('speaks WebSocket') });
  });
});

describe('the socket’s pings, lifetime and backlog', () => {
  it('pings, and closes with 1000 after its longest life, 1001 when the app closes', async () => {
    const { t, ws } = await listening({ heartbeatMs: 100, maxMs: 1000 });
    try {
      const admin = await createAdmin(t.ctx);
      const socket = await openSocket(ws, bearer(admin.token));
      let pings = 0;
      socket.socket.on('ping', () => pings++);
      expect(await socket.closing()).toEqual({ code: 1000, reason: 'stream lifetime reached' });
      expect(pings).toBeGreaterThanOrEqual(3);
      const other = await openSocket(ws, bearer(admin.token));
      await t.close();
      expect(await other.closing()).toEqual({ code: 1001, reason: 'server shutting down' });
    } finally {
      await t.close().catch(() => undefined);
    }
  });

  it('closes a client that does not read with 1008, slow consumer', { timeout: 60_000 }, async () => {
    const { t, ws } = await listening({ heartbeatMs: 300, backlogEvents: 50 });
    try {
      const admin = await createAdmin(t.ctx);
      const socket = await openSocket(ws, bearer(admin.token));
      // The client stops reading its socket.
      const raw = (socket.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
      raw.pause();
      const pad = 'x'.repeat(16 * 1024);
      await t.ctx.db.transaction().execute(async (trx) => {
        for (let n = 1; n <= 1500; n++)
          await t.ctx.events.publish(trx, {
            pbxId: admin.pbxId,
            kind: rang,
            subject: { type: 'bell', id: `b${n}` },
            audience: { scope: 'tenant' },
            data: { n, pad },
          });
      });
      await sleep(1500);
      expect(t.ctx.events.subscriptions().get(admin.pbxId)).toBeUndefined();
      raw.resume();
      expect(await socket.closing(10_000)).toEqual({ code: 1008, reason: 'slow consumer' });
      expect(socket.ids().length).toBeLessThan(1500);
      expect(socket.ids()).toEqual(socket.ids().map((_, i) => i + 1));
    } finally {
      await t.close();
    }
  });
});
