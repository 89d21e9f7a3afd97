import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSse } from '../../../../test/event-stream-clients.js';
import { createAdmin, createKey, createTenant, createUser } from '../../../../test/factories.js';
import { openTestDatabase } from '../../../../test/database.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers.js';
import type { Config } from '../../../config.js';
import type { Database } from '../../../db/database.js';
import { defineEventKind, type Audience } from '../../../platform/events/index.js';

/** Kinds of this test only, so it depends on no domain's producers. */
const pinged = defineEventKind({
  kind: 'test_stream.pinged',
  subject: 'widget',
  description: 'A widget was pinged (tests).',
  data: Type.Object({ n: Type.Integer(), pad: Type.Optional(Type.String()) }),
  pbxKey: true,
  integrationScope: 'call-history',
});
const ponged = defineEventKind({
  kind: 'test_stream.ponged',
  subject: 'widget',
  description: 'A widget answered (tests).',
  data: Type.Object({ n: Type.Integer() }),
  pbxKey: false,
});
const turned = defineEventKind({
  kind: 'test_stream_gadget.turned',
  subject: 'gadget',
  description: 'A gadget turned (tests).',
  data: Type.Object({ n: Type.Integer() }),
  pbxKey: false,
  pbxServer: true,
});

const TENANT: Audience = { scope: 'tenant' };

const STREAM_LIMITS: Config['eventStream'] = { heartbeatMs: 60_000, maxMs: 600_000, backlogEvents: 1000, backlogBytes: 1024 * 1024 };

/** A test app listening on a port, its streams' limits as given. */
async function listening(limits: Partial<Config['eventStream']> = {}, options: Parameters<typeof buildTestApp>[0] = {}) {
  const t = await buildTestApp({ ...options, config: { eventStream: { ...STREAM_LIMITS, ...limits } } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1`;
  return { t, base };
}

function publish(
  t: TestApp,
  pbxId: string,
  n: number,
  options: { kind?: typeof pinged | typeof ponged | typeof turned; audience?: Audience; id?: string; pad?: string } = {},
) {
  const kind = options.kind ?? pinged;
  const subject = kind === turned ? { type: 'gadget', id: options.id ?? `g${n}` } : { type: 'widget', id: options.id ?? `w${n}` };
  return t.ctx.events.publish(t.ctx.db, {
    pbxId,
    kind: kind.kind,
    subject,
    audience: options.audience ?? TENANT,
    data: options.pad === undefined ? { n } : { n, pad: options.pad },
  });
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('GET /events/stream (Server-Sent Events)', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    ({ t, base } = await listening());
  });
  afterAll(() => t.close());

  async function freshTenant() {
    const own = await createTenant(t.ctx);
    return { tenant: own, admin: await createAdmin(t.ctx, own) };
  }

  it('sends each event as it commits, in order: id, kind and the envelope, after the headers every answer has', async () => {
    const { tenant, admin } = await freshTenant();
    const stream = await openSse(`${base}/events/stream`, bearer(admin.token));
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toBe('no-store');
    expect(stream.headers['x-request-id']).toBeTruthy();
    for (let n = 1; n <= 5; n++) await publish(t, tenant.pbxId, n);
    const events = await stream.count(5);
    expect(events.map((event) => [event.id, event.event])).toEqual([1, 2, 3, 4, 5].map((n) => [String(n), 'test_stream.pinged']));
    expect(JSON.parse(events[0].data!)).toEqual({
      id: '1',
      kind: 'test_stream.pinged',
      time: t.clock.now().toISOString(),
      tenant: tenant.pbxId,
      subject: { type: 'widget', id: 'w1' },
      data: { n: 1 },
    });
    // The opening comment sent the headers before the first event.
    expect(stream.frames[0]).toEqual({ comment: 'live events' });
    stream.close();
  });

  it('resumes after Last-Event-ID (or last_event_id) with exactly the events missed, once each, then live ones', async () => {
    const { tenant, admin } = await freshTenant();
    const first = await openSse(`${base}/events/stream`, bearer(admin.token));
    for (let n = 1; n <= 3; n++) await publish(t, tenant.pbxId, n);
    await first.count(3);
    first.close();
    await first.endOfStream();
    for (let n = 4; n <= 7; n++) await publish(t, tenant.pbxId, n);
    const resumed = await openSse(`${base}/events/stream`, { ...bearer(admin.token), 'last-event-id': '3' });
    await resumed.count(4);
    await publish(t, tenant.pbxId, 8);
    await resumed.count(5);
    await sleep(50);
    expect(resumed.ids()).toEqual([4, 5, 6, 7, 8]);
    resumed.close();

    // The query parameter, for clients that cannot set the header; the header wins over it.
    const byQuery = await openSse(`${base}/events/stream?last_event_id=6`, bearer(admin.token));
    expect((await byQuery.count(2)).map((event) => Number(event.id))).toEqual([7, 8]);
    byQuery.close();
    const both = await openSse(`${base}/events/stream?last_event_id=1`, { ...bearer(admin.token), 'last-event-id': '7' });
    expect((await both.count(1)).map((event) => Number(event.id))).toEqual([8]);
    await sleep(50);
    expect(both.ids()).toEqual([8]);
    both.close();
  });

  it('starts a client without an id at the newest event: live ones only', async () => {
    const { tenant, admin } = await freshTenant();
    for (let n = 1; n <= 3; n++) await publish(t, tenant.pbxId, n);
    const stream = await openSse(`${base}/events/stream`, bearer(admin.token));
    await publish(t, tenant.pbxId, 4);
    await stream.count(1);
    await sleep(50);
    expect(stream.ids()).toEqual([4]);
    stream.close();
  });

  it('sends one reset, with the current id, for an id pruned (or never given), then carries on live', async () => {
    const tenant = await createTenant(t.ctx);
    for (let n = 1; n <= 3; n++) await publish(t, tenant.pbxId, n);
    t.clock.advance((t.ctx.config.eventRetentionHours + 1) * 3600);
    // Made after the clock moved on, so its token is not expired.
    const admin = await createAdmin(t.ctx, tenant);
    await publish(t, tenant.pbxId, 4);
    await t.ctx.events.pruneNow();
    const stream = await openSse(`${base}/events/stream`, { ...bearer(admin.token), 'last-event-id': '1' });
    const [reset] = await stream.count(1);
    expect(reset.event).toBe('reset');
    expect(reset.id).toBe('4');
    expect(JSON.parse(reset.data!)).toEqual({ reason: expect.stringContaining('reload the state over the REST API') });
    await publish(t, tenant.pbxId, 5);
    await stream.count(2);
    await sleep(50);
    expect(stream.events().map((event) => event.event)).toEqual(['reset', 'test_stream.pinged']);
    expect(stream.ids()).toEqual([5]);
    stream.close();
    // An id this PBX never gave.
    const unknown = await openSse(`${base}/events/stream?last_event_id=99`, bearer(admin.token));
    expect((await unknown.count(1))[0]).toMatchObject({ event: 'reset', id: '5' });
    unknown.close();
  });

  it('filters by kind (names and prefix.*) and by subject', async () => {
    const { tenant, admin } = await freshTenant();
    const open = (query: string) => openSse(`${base}/events/stream?${query}`, bearer(admin.token));
    const exact = await open('kinds=test_stream.ponged');
    const prefix = await open('kinds=test_stream.*');
    const two = await open('kinds=test_stream.ponged,test_stream_gadget.turned');
    const subject = await open('subject=widget:w2');
    const both = await open('kinds=test_stream.pinged&subject=widget:w2');
    await publish(t, tenant.pbxId, 1);
    await publish(t, tenant.pbxId, 2, { kind: ponged });
    await publish(t, tenant.pbxId, 3, { kind: turned });
    await publish(t, tenant.pbxId, 4, { id: 'w2' });
    const all = await open('last_event_id=0');
    await all.count(4);
    await sleep(100);
    expect(exact.ids()).toEqual([2]);
    expect(prefix.ids()).toEqual([1, 2, 4]);
    expect(two.ids()).toEqual([2, 3]);
    expect(subject.ids()).toEqual([2, 4]);
    expect(both.ids()).toEqual([4]);
    expect(all.ids()).toEqual([1, 2, 3, 4]);
    for (const stream of [exact, prefix, two, subject, both, all]) stream.close();
  });

  it('refuses with 422, naming them, kinds and subject types that select nothing, and malformed ones', async () => {
    const { admin } = await freshTenant();
    const refused = async (query: string) => {
      const stream = await openSse(`${base}/events/stream?${query}`, bearer(admin.token));
      expect(stream.status, query).toBe(422);
      return JSON.parse(stream.body) as { message: string; errors: Record<string, string[]> };
    };
    expect((await refused('kinds=nope.nothing,test_stream.*,zzz.*')).errors).toEqual({ kinds: ['No event kind is called nope.nothing, zzz.*.'] });
    expect((await refused('subject=planet:earth')).errors).toEqual({ subject: ['No event kind is about a planet.'] });
    for (const query of ['kinds=call', 'kinds=CALL.*', 'kinds=a.b,', 'subject=widget', 'last_event_id=-1', 'last_event_id=abc', 'include=zzz'])
      expect(Object.keys((await refused(query)).errors).length, query).toBeGreaterThan(0);
    const header = await openSse(`${base}/events/stream`, { ...bearer(admin.token), 'last-event-id': 'x' });
    expect(header.status).toBe(422);
  });

  it("never sends tenant A's events to tenant B's administrator", async () => {
    const a = await freshTenant();
    const b = await freshTenant();
    const onB = await openSse(`${base}/events/stream`, bearer(b.admin.token));
    const onA = await openSse(`${base}/events/stream`, bearer(a.admin.token));
    await publish(t, a.tenant.pbxId, 1);
    await publish(t, a.tenant.pbxId, 2, { audience: { scope: 'admins' } });
    await publish(t, b.tenant.pbxId, 1);
    await onA.count(2);
    await onB.count(1);
    await sleep(100);
    expect(onB.data().map((event) => event.tenant)).toEqual([b.tenant.pbxId]);
    expect(onA.data().map((event) => event.tenant)).toEqual([a.tenant.pbxId, a.tenant.pbxId]);
    // Resuming from an id of A's stream is no way into A's events either: B has no such id.
    const resumed = await openSse(`${base}/events/stream?last_event_id=0`, bearer(b.admin.token));
    await resumed.count(1);
    await sleep(50);
    expect(resumed.data().map((event) => event.tenant)).toEqual([b.tenant.pbxId]);
    for (const stream of [onA, onB, resumed]) stream.close();
  });

  it('sends each principal only what its audience and its kind allow', async () => {
    const { tenant, admin } = await freshTenant();
    const named = await createUser(t.ctx, { tenant });
    const other = await createUser(t.ctx, { tenant });
    const keys = {
      pbx: await createKey(t.ctx, tenant, 'pbx'),
      scoped: await createKey(t.ctx, tenant, 'integration', ['call-history']),
      unscoped: await createKey(t.ctx, tenant, 'integration', ['contacts']),
      server: await createKey(t.ctx, tenant, 'pbx_server'),
    };
    const streams = {
      admin: await openSse(`${base}/events/stream`, bearer(admin.token)),
      named: await openSse(`${base}/events/stream`, bearer(named.token)),
      other: await openSse(`${base}/events/stream`, bearer(other.token)),
      pbx: await openSse(`${base}/events/stream`, bearer(keys.pbx)),
      scoped: await openSse(`${base}/events/stream`, bearer(keys.scoped)),
      unscoped: await openSse(`${base}/events/stream`, bearer(keys.unscoped)),
      server: await openSse(`${base}/events/stream`, bearer(keys.server)),
    };
    expect(Object.values(streams).map((stream) => stream.status)).toEqual(Object.values(streams).map(() => 200));
    await publish(t, tenant.pbxId, 1); // 1: pinged, the whole tenant
    await publish(t, tenant.pbxId, 2, { audience: { scope: 'users', userIds: [named.id] } }); // 2: pinged, the named user
    await publish(t, tenant.pbxId, 3, { audience: { scope: 'admins' } }); // 3: pinged, administrators
    await publish(t, tenant.pbxId, 4, { kind: ponged }); // 4: ponged (no API key reads it), the tenant
    await publish(t, tenant.pbxId, 5, { kind: turned, audience: { scope: 'admins' } }); // 5: turned (the PBX server reads it), administrators
    await streams.admin.count(5);
    await sleep(150);
    expect(Object.fromEntries(Object.entries(streams).map(([who, stream]) => [who, stream.ids()]))).toEqual({
      admin: [1, 2, 3, 4, 5],
      named: [1, 2, 4],
      other: [1, 4],
      pbx: [1, 2, 3],
      scoped: [1, 2, 3],
      unscoped: [],
      server: [5],
    });
    for (const stream of Object.values(streams)) stream.close();
  });

  it('refuses an internal key (it receives no events), and a request without credentials', async () => {
    const { tenant } = await freshTenant();
    const internal = await createKey(t.ctx, tenant, 'internal');
    expect((await openSse(`${base}/events/stream`, { authorization: internal })).status).toBe(403);
    const none = await openSse(`${base}/events/stream`);
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body)).toEqual({ error: 'Unauthenticated.' });
  });

  it('ends open streams with a close event when the app closes, without making it wait', async () => {
    const { t: closing, base: closingBase } = await listening();
    const own = await createTenant(closing.ctx);
    const owner = await createAdmin(closing.ctx, own);
    const streams = [await openSse(`${closingBase}/events/stream`, bearer(owner.token)), await openSse(`${closingBase}/events/stream`, bearer(owner.token))];
    const started = Date.now();
    await closing.close();
    expect(Date.now() - started).toBeLessThan(3000);
    for (const stream of streams) {
      await stream.endOfStream();
      expect(stream.events().at(-1)).toEqual({ event: 'close', data: JSON.stringify({ reason: 'server shutting down' }) });
    }
  });
});

describe('the streams’ heartbeat, lifetime and backlog', () => {
  it('sends a heartbeat comment while nothing else comes', async () => {
    const { t, base } = await listening({ heartbeatMs: 40 });
    try {
      const admin = await createAdmin(t.ctx);
      const stream = await openSse(`${base}/events/stream`, bearer(admin.token));
      await stream.until((client) => client.frames.filter((frame) => frame.comment === 'heartbeat').length >= 3);
      stream.close();
    } finally {
      await t.close();
    }
  });

  it('ends a stream after its longest life with a close event; the client resumes from its last id', async () => {
    const { t, base } = await listening({ maxMs: 300 });
    try {
      const admin = await createAdmin(t.ctx);
      const stream = await openSse(`${base}/events/stream`, bearer(admin.token));
      await publish(t, admin.pbxId, 1);
      await stream.endOfStream();
      expect(stream.events()).toEqual([
        expect.objectContaining({ id: '1', event: 'test_stream.pinged' }),
        { event: 'close', data: JSON.stringify({ reason: 'stream lifetime reached' }) },
      ]);
      await publish(t, admin.pbxId, 2);
      const resumed = await openSse(`${base}/events/stream`, { ...bearer(admin.token), 'last-event-id': '1' });
      expect((await resumed.count(1))[0].id).toBe('2');
      resumed.close();
    } finally {
      await t.close();
    }
  });

  it(
    'keeps no more than the backlog for a client that does not read, closes it as a slow consumer, and serves a reading one a burst in full',
    { timeout: 60_000 },
    async () => {
      const backlogEvents = 50;
      // Heartbeats often enough for the test, not so often that a busy test process looks stalled.
      const { t, base } = await listening({ heartbeatMs: 300, backlogEvents, backlogBytes: 1024 * 1024 });
      try {
        const admin = await createAdmin(t.ctx);
        const stream = await openSse(`${base}/events/stream`, bearer(admin.token));
        const ahead = await openSse(`${base}/events/stream`, bearer(admin.token));
        await stream.until((client) => client.frames.length >= 1);
        stream.pause();
        // Far more than the socket buffers between the two take (some MiB on loopback): 1,500 events of 16 KiB, 24 MiB.
        const published = 1500;
        const pad = 'x'.repeat(16 * 1024);
        await t.ctx.db.transaction().execute(async (trx) => {
          for (let n = 1; n <= published; n++)
            await t.ctx.events.publish(trx, { pbxId: admin.pbxId, kind: pinged, subject: { type: 'widget', id: `w${n}` }, audience: TENANT, data: { n, pad } });
        });
        // A client that reads gets them all meanwhile, though the burst is thirty times its backlog.
        await ahead.count(published, 40_000);
        expect(ahead.ids()).toEqual(Array.from({ length: published }, (_, i) => i + 1));
        // The slow one's subscription ends: the server keeps nothing more for it.
        await sleep(200);
        expect(t.ctx.events.subscriptions().get(admin.pbxId)).toBe(1);
        stream.resume();
        await stream.endOfStream(10_000);
        const events = stream.events();
        expect(events.at(-1)).toEqual({ event: 'close', data: JSON.stringify({ reason: 'slow consumer' }) });
        const received = stream.ids();
        // In order, from the first, and stopped well short of all of them: what the socket buffers held and the backlog's limit.
        expect(received).toEqual(received.map((_, i) => i + 1));
        expect(received.length).toBeLessThan(published);
        // It resumes from there, on a new stream.
        const resumed = await openSse(`${base}/events/stream`, { ...bearer(admin.token), 'last-event-id': String(received.at(-1)) });
        await resumed.count(published - received.length, 40_000);
        expect(resumed.ids()[0]).toBe(received.length + 1);
        resumed.close();
        ahead.close();
      } finally {
        await t.close();
      }
    },
  );
});

describe.runIf(process.env.TEST_DB === 'postgres')('streams on two instances of one PostgreSQL database', () => {
  let database: Database;
  const instances: Array<{ t: TestApp; base: string }> = [];

  beforeAll(async () => {
    database = await openTestDatabase();
    for (let i = 0; i < 2; i++) {
      const t = await buildTestApp({ database, config: { eventStream: STREAM_LIMITS } });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      instances.push({ t, base: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1` });
    }
  });
  afterAll(async () => {
    for (const { t } of instances) await t.close();
    await database?.close();
  });

  it('delivers an event published on either instance to the streams on both, once each, in order', async () => {
    const [a, b] = instances;
    const admin = await createAdmin(a.t.ctx);
    const streams = [
      await openSse(`${a.base}/events/stream`, bearer(admin.token)),
      await openSse(`${b.base}/events/stream`, bearer(admin.token)),
      await openSse(`${b.base}/events/stream`, bearer(admin.token)),
    ];
    // Each instance's LISTEN connection is up once a first event reaches its stream.
    await publish(a.t, admin.pbxId, 1);
    for (const stream of streams) await stream.count(1);
    for (let n = 2; n <= 10; n++) await publish(n % 2 ? a.t : b.t, admin.pbxId, n);
    for (const stream of streams) await stream.count(10);
    await sleep(200);
    for (const stream of streams) expect(stream.ids()).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    for (const stream of streams) stream.close();
  });
});
