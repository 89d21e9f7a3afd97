import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Type } from '@sinclair/typebox';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCaller, bearer, useTestApp } from '../../../test/helpers.js';
import { createAdmin, createUser, type TestUser } from '../../../test/factories.js';
import type { Executor } from '../../db/database.js';
import { defineEventKind, type Audience } from '../events/index.js';
import { dispatchWebhookEvents } from './subscription-dispatch.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Kinds of these tests only: one the PBX key reads (like a call), one no key reads. */
const rang = defineEventKind({
  kind: 'test_dispatch.rang',
  subject: 'bell',
  description: 'A bell rang (tests).',
  data: Type.Object({ n: Type.Integer() }),
  pbxKey: true,
});
const polished = defineEventKind({
  kind: 'test_dispatch.polished',
  subject: 'bell',
  description: 'A bell was polished (tests).',
  data: Type.Object({ n: Type.Integer() }),
  pbxKey: false,
});

interface Message {
  type: string;
  timestamp: string;
  data: { id: string; kind: string; time: string; tenant: string; subject: { type: string; id: string }; data: { n: number } };
}

describe('webhook subscriptions: delivery', () => {
  let server: Server;
  let base: string;
  const received: Received[] = [];
  let failNext = 0;

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  const t = useTestApp({ config: { jobWorkerEnabled: false, webhookAllowPrivate: true } });
  const call = apiCaller(() => t);
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push({ path: req.url ?? '', headers: req.headers, body });
        if (failNext > 0) {
          failNext--;
          res.writeHead(503).end('busy');
        } else res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  const ring = (pbxId: string, n: number, options: { audience?: Audience; db?: Executor; kind?: typeof rang; subject?: string } = {}) =>
    t.ctx.events.publish(options.db ?? t.ctx.db, {
      pbxId,
      kind: options.kind ?? rang,
      subject: { type: 'bell', id: options.subject ?? `bell-${n}` },
      audience: options.audience ?? { scope: 'tenant' },
      data: { n },
    });
  const subscribe = async (admin: TestUser, path: string, body: object = {}) => {
    const response = await call('POST', '/webhook-subscriptions', admin.token, { url: `${base}${path}`, kinds: ['test_dispatch.rang'], ...body });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { id: string };
  };
  /** Dispatches the tenant's new events and sends every delivery that is due. */
  const deliver = async (pbxId: string) => {
    await t.app.webhookDispatcher.dispatch(pbxId);
    await t.app.jobs.drain();
  };
  const at = (path: string) => received.filter((r) => r.path === path);
  const messagesAt = (path: string) => at(path).map((r) => JSON.parse(r.body) as Message);

  it('delivers each committed event a subscription selects as a signed message {type, timestamp, data: the event}, logged', async () => {
    const admin = await createAdmin(t.ctx);
    await ring(admin.pbxId, 1); // before the subscription: not delivered
    const subscription = await subscribe(admin, '/signed');
    const seq = await ring(admin.pbxId, 2);
    await ring(admin.pbxId, 3, { kind: polished }); // a kind it does not select
    await deliver(admin.pbxId);

    const requests = at('/signed');
    expect(requests).toHaveLength(1);
    const secret = (await call('GET', '/webhooks/signing-secret', admin.token)).json().data.secret;
    const message = new Webhook(secret).verify(requests[0].body, requests[0].headers as Record<string, string>) as Message;
    expect(message).toEqual({
      type: 'test_dispatch.rang',
      timestamp: t.clock.now().toISOString(),
      data: {
        id: String(seq),
        kind: 'test_dispatch.rang',
        time: t.clock.now().toISOString(),
        tenant: admin.pbxId,
        subject: { type: 'bell', id: 'bell-2' },
        data: { n: 2 },
      },
    });
    expect(requests[0].headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(requests[0].headers['content-type']).toBe('application/json');

    const log = await t.app.inject({ method: 'GET', url: '/api/v1/webhooks/deliveries?filter[event]=test_dispatch.rang', headers: bearer(admin.token) });
    expect(log.json().data).toEqual([
      expect.objectContaining({
        id: requests[0].headers['webhook-id'],
        event: 'test_dispatch.rang',
        subject_type: 'bell',
        subject_id: 'bell-2',
        url: `${base}/signed`,
        status: 'delivered',
        attempts: 1,
        response_status: 204,
        payload: message,
      }),
    ]);
    // Dispatched once: a second dispatch finds nothing new.
    await deliver(admin.pbxId);
    expect(at('/signed')).toHaveLength(1);
    expect(subscription.id).toBeTruthy();
  });

  it('retries a delivery the receiver refuses, with back-off, each attempt in the log', async () => {
    const admin = await createAdmin(t.ctx);
    await subscribe(admin, '/retried');
    failNext = 2;
    await ring(admin.pbxId, 1);
    await deliver(admin.pbxId);
    const logged = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/v1/webhooks/deliveries', headers: bearer(admin.token) })).json().data as Array<Record<string, unknown>>;
    expect(await logged()).toEqual([expect.objectContaining({ status: 'pending', attempts: 1, response_status: 503, last_error: 'HTTP 503: busy' })]);
    t.clock.advance(5);
    await t.app.jobs.drain();
    expect(await logged()).toEqual([expect.objectContaining({ status: 'pending', attempts: 2 })]);
    t.clock.advance(10);
    await t.app.jobs.drain();
    expect(await logged()).toEqual([expect.objectContaining({ status: 'delivered', attempts: 3, response_status: 204, last_error: null })]);
    // Each attempt carried the same message.
    expect(new Set(at('/retried').map((r) => r.body)).size).toBe(1);
    expect(at('/retried')).toHaveLength(3);
  });

  it('delivers nothing for a rolled-back change, and the committed event that takes its number once', async () => {
    const admin = await createAdmin(t.ctx);
    await subscribe(admin, '/rollback');
    await expect(
      t.ctx.db.transaction().execute(async (trx) => {
        await ring(admin.pbxId, 1, { db: trx });
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    await deliver(admin.pbxId);
    expect(at('/rollback')).toEqual([]);
    await ring(admin.pbxId, 2);
    await deliver(admin.pbxId);
    expect(messagesAt('/rollback').map((m) => [m.data.id, m.data.data.n])).toEqual([['1', 2]]);
  });

  it('selects by kind pattern and subject, and each subscription gets its own delivery', async () => {
    const admin = await createAdmin(t.ctx);
    await subscribe(admin, '/all', { kinds: ['test_dispatch.*'] });
    await subscribe(admin, '/bell-7', { kinds: ['test_dispatch.*'], filters: { subject_id: 'bell-7' } });
    await subscribe(admin, '/bells', { kinds: ['test_dispatch.polished'], filters: { subject_type: 'bell' } });
    await ring(admin.pbxId, 1, { subject: 'bell-7' });
    await ring(admin.pbxId, 2, { kind: polished });
    await ring(admin.pbxId, 3, { kind: polished, subject: 'bell-7' });
    // A subject id of any length (an import's were uuids).
    const long = `bell-${'x'.repeat(100)}`;
    await ring(admin.pbxId, 4, { subject: long });
    await deliver(admin.pbxId);
    const seen = (path: string) => messagesAt(path).map((m) => `${m.type}:${m.data.subject.id}`);
    expect(seen('/all').sort()).toEqual([
      'test_dispatch.polished:bell-2',
      'test_dispatch.polished:bell-7',
      'test_dispatch.rang:bell-7',
      `test_dispatch.rang:${long}`,
    ]);
    expect(seen('/bell-7').sort()).toEqual(['test_dispatch.polished:bell-7', 'test_dispatch.rang:bell-7']);
    expect(seen('/bells').sort()).toEqual(['test_dispatch.polished:bell-2', 'test_dispatch.polished:bell-7']);
  });

  it('never delivers what the owner may not read: a user’s subscription gets its own and the tenant’s events only, a disabled owner’s nothing', async () => {
    const admin = await createAdmin(t.ctx);
    const colleague = await createUser(t.ctx, { tenant: admin.tenant });
    await subscribe(admin, '/demoted', { kinds: ['test_dispatch.*'] });
    // The owner is no administrator any more: it receives what a user receives.
    await t.ctx.db.updateTable('users').set({ role: 'user' }).where('id', '=', admin.id).execute();
    await ring(admin.pbxId, 1, { audience: { scope: 'admins' } });
    await ring(admin.pbxId, 2, { audience: { scope: 'users', userIds: [colleague.id] } });
    await ring(admin.pbxId, 3, { audience: { scope: 'users', userIds: [colleague.id, admin.id] } });
    await ring(admin.pbxId, 4, { audience: { scope: 'tenant' } });
    await ring(admin.pbxId, 5, { audience: { scope: 'admins' }, kind: polished });
    await deliver(admin.pbxId);
    expect(
      messagesAt('/demoted')
        .map((m) => m.data.data.n)
        .sort(),
    ).toEqual([3, 4]);

    await t.ctx.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', admin.id).execute();
    await ring(admin.pbxId, 6);
    await deliver(admin.pbxId);
    await t.ctx.db.updateTable('users').set({ status: 'active', deleted_at: t.clock.now().toISOString() }).where('id', '=', admin.id).execute();
    await ring(admin.pbxId, 7);
    await deliver(admin.pbxId);
    // Nothing while disabled or deleted, and nothing of that time later either.
    await t.ctx.db.updateTable('users').set({ deleted_at: null }).where('id', '=', admin.id).execute();
    await ring(admin.pbxId, 8);
    await deliver(admin.pbxId);
    expect(
      messagesAt('/demoted')
        .map((m) => m.data.data.n)
        .sort(),
    ).toEqual([3, 4, 8]);
  });

  it('keeps tenants apart, and a paused subscription receives nothing of its pause once resumed', async () => {
    const admin = await createAdmin(t.ctx);
    const stranger = await createAdmin(t.ctx);
    const paused = await subscribe(admin, '/paused');
    await subscribe(stranger, '/stranger');
    expect((await call('PATCH', `/webhook-subscriptions/${paused.id}`, admin.token, { active: false })).statusCode).toBe(200);
    await ring(admin.pbxId, 1);
    await deliver(admin.pbxId);
    expect((await call('PATCH', `/webhook-subscriptions/${paused.id}`, admin.token, { active: true })).statusCode).toBe(200);
    await ring(admin.pbxId, 2);
    await deliver(admin.pbxId);
    await deliver(stranger.pbxId);
    expect(messagesAt('/paused').map((m) => m.data.data.n)).toEqual([2]);
    expect(at('/stranger')).toEqual([]);
    // A deleted subscription gets no more.
    expect((await call('DELETE', `/webhook-subscriptions/${paused.id}`, admin.token)).statusCode).toBe(204);
    await ring(admin.pbxId, 3);
    await deliver(admin.pbxId);
    expect(messagesAt('/paused').map((m) => m.data.data.n)).toEqual([2]);
  });

  it('dispatches each event once when dispatches of one tenant run at the same time', async () => {
    const admin = await createAdmin(t.ctx);
    await subscribe(admin, '/concurrent');
    for (let n = 1; n <= 30; n++) await ring(admin.pbxId, n);
    const ctx = { db: t.ctx.db, dialect: t.ctx.dialect, clock: t.clock };
    const counts = await Promise.all([1, 2, 3].map(() => dispatchWebhookEvents(ctx, admin.pbxId, undefined, 7)));
    while ((await dispatchWebhookEvents(ctx, admin.pbxId, undefined, 7)) > 0);
    expect(counts.reduce((a, b) => a + b)).toBeLessThanOrEqual(30);
    await t.app.jobs.drain();
    expect(
      messagesAt('/concurrent')
        .map((m) => m.data.data.n)
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });

  it('is woken by the bus as each event commits once started (the instances that run background work)', async () => {
    const admin = await createAdmin(t.ctx);
    await subscribe(admin, '/live');
    const dispatcher = t.app.webhookDispatcher;
    dispatcher.start();
    try {
      await dispatcher.sweep();
      const stored = async () => (await t.ctx.db.selectFrom('webhook_deliveries').select('id').where('url', '=', `${base}/live`).execute()).length;
      for (let n = 1; n <= 3; n++) {
        await ring(admin.pbxId, n);
        const deadline = Date.now() + 2000;
        // Well before the next sweep (5 s): the bus's wake.
        while ((await stored()) < n && Date.now() < deadline) await sleep(10);
        expect(await stored()).toBe(n);
      }
      await t.app.jobs.drain();
      // Standard Webhooks promises no order between messages.
      expect(
        messagesAt('/live')
          .map((m) => m.data.data.n)
          .sort(),
      ).toEqual([1, 2, 3]);
    } finally {
      await dispatcher.close();
    }
  });
});
