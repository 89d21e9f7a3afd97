import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, useTestApp, type TestApp } from '../../../test/helpers.js';
import { openTestDatabase } from '../../../test/database.js';
import { loadConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { AppContext } from '../context.js';
import { insertPbx } from '../tenancy.js';
import { defineEventKind, EventBus, oldestRetainedSeq, readEvents, resumeFrom, type EventSubscription, type LiveEvent } from './index.js';

const pinged = defineEventKind({
  kind: 'test_events.pinged',
  subject: 'widget',
  description: 'A widget was pinged (tests).',
  data: Type.Object({ n: Type.Integer() }),
  pbxKey: true,
});

const onPostgres = process.env.TEST_DB === 'postgres';

async function newTenant(ctx: AppContext): Promise<string> {
  const pbx = await insertPbx(ctx.db, ctx.clock, { name: `PBX ${randomBytes(4).toString('hex')}`, countryCode: 'LU' });
  return pbx.id;
}

function ping(ctx: AppContext, pbxId: string, n: number, db = ctx.db) {
  return ctx.events.publish(db, { pbxId, kind: pinged, subject: { type: 'widget', id: `w${n}` }, audience: { scope: 'tenant' }, data: { n } });
}

/** What a subscriber received, and a wait for the events it expects. */
function collect(bus: EventBus, pbxId: string, afterSeq: number) {
  const events: LiveEvent[] = [];
  const batches: number[] = [];
  const subscription: EventSubscription = bus.subscribe(pbxId, afterSeq, (batch) => {
    batches.push(batch.length);
    events.push(...batch);
  });
  return {
    events,
    batches,
    subscription,
    seqs: () => events.map((event) => event.seq),
    async until(count: number, ms = 3000) {
      const deadline = Date.now() + ms;
      while (events.length < count && Date.now() < deadline) await sleep(5);
      return events.map((event) => event.seq);
    },
  };
}

describe('EVENT_RETENTION_HOURS', () => {
  it('is a whole number of hours, at least 1, 24 when unset', () => {
    expect(loadConfig({}).eventRetentionHours).toBe(24);
    expect(loadConfig({ EVENT_RETENTION_HOURS: '' }).eventRetentionHours).toBe(24);
    expect(loadConfig({ EVENT_RETENTION_HOURS: '168' }).eventRetentionHours).toBe(168);
    for (const bad of ['0', '-1', '1.5', 'a day']) expect(() => loadConfig({ EVENT_RETENTION_HOURS: bad })).toThrow(/EVENT_RETENTION_HOURS must/);
  });
});

describe('live events on one instance', () => {
  const t = useTestApp();

  it('numbers each tenant’s events from 1, without gaps, apart from other tenants', async () => {
    const [a, b] = [await newTenant(t.ctx), await newTenant(t.ctx)];
    const seqs = [];
    for (const [pbxId, n] of [
      [a, 1],
      [b, 1],
      [a, 2],
      [a, 3],
      [b, 2],
    ] as const)
      seqs.push(await ping(t.ctx, pbxId, n));
    expect(seqs).toEqual([1, 1, 2, 3, 2]);
    const stored = await readEvents(t.ctx.db, a, 0, 10);
    expect(stored.map((event) => [event.seq, event.data])).toEqual([
      [1, { n: 1 }],
      [2, { n: 2 }],
      [3, { n: 3 }],
    ]);
    expect(stored[0]).toMatchObject({ pbxId: a, kind: 'test_events.pinged', subject: { type: 'widget', id: 'w1' }, audience: { scope: 'tenant' } });
    expect(stored[0].time).toBe(t.clock.now().toISOString());
    expect((await readEvents(t.ctx.db, b, 1, 10)).map((event) => event.seq)).toEqual([2]);
  });

  it('refuses an unknown kind, a subject of another type and, outside production, data the kind does not declare', async () => {
    const pbxId = await newTenant(t.ctx);
    const base = { pbxId, subject: { type: 'widget', id: 'w' }, audience: { scope: 'tenant' } as const };
    await expect(t.ctx.events.publish(t.ctx.db, { ...base, kind: 'test_events.unknown', data: {} })).rejects.toThrow(/not defined/);
    await expect(t.ctx.events.publish(t.ctx.db, { ...base, kind: pinged, subject: { type: 'call', id: 'c' }, data: { n: 1 } })).rejects.toThrow(
      /about a widget/,
    );
    await expect(t.ctx.events.publish(t.ctx.db, { ...base, kind: 'test_events.pinged', data: { n: 'one' } })).rejects.toThrow(/does not match/);
    expect(await readEvents(t.ctx.db, pbxId, 0, 10)).toEqual([]);
    expect(() => defineEventKind({ ...pinged, description: 'another' })).toThrow(/defined twice/);
    expect(() => defineEventKind({ ...pinged, kind: 'reset' })).toThrow(/dot-separated/);
  });

  it('delivers a committed event once its transaction commits, and never one whose transaction rolled back (its number is given again)', async () => {
    const pbxId = await newTenant(t.ctx);
    await ping(t.ctx, pbxId, 1);
    const seen = collect(t.ctx.events, pbxId, 1);
    await expect(
      t.ctx.db.transaction().execute(async (trx) => {
        expect(await ping(t.ctx, pbxId, 2, trx)).toBe(2);
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    await t.ctx.db.transaction().execute(async (trx) => {
      expect(await ping(t.ctx, pbxId, 3, trx)).toBe(2);
      // Not before the commit.
      await sleep(50);
      expect(seen.events).toEqual([]);
    });
    expect(await seen.until(1)).toEqual([2]);
    await sleep(50);
    expect(seen.events.map((event) => event.data)).toEqual([{ n: 3 }]);
    expect((await readEvents(t.ctx.db, pbxId, 0, 10)).map((event) => event.data)).toEqual([{ n: 1 }, { n: 3 }]);
    seen.subscription.close();
  });

  it('gives two subscribers of a tenant every event once, in order, and none of another tenant’s', async () => {
    const [a, b] = [await newTenant(t.ctx), await newTenant(t.ctx)];
    const first = collect(t.ctx.events, a, 0);
    const second = collect(t.ctx.events, a, 0);
    const other = collect(t.ctx.events, b, 0);
    // Some one by one, some at once (each in its own transaction).
    for (let n = 1; n <= 10; n++) await ping(t.ctx, a, n);
    await Promise.all(Array.from({ length: 10 }, (_, i) => ping(t.ctx, a, 11 + i)));
    const all = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(await first.until(20)).toEqual(all);
    expect(await second.until(20)).toEqual(all);
    await ping(t.ctx, b, 1);
    expect(await other.until(1)).toEqual([1]);
    await sleep(50);
    expect(first.seqs()).toEqual(all);
    expect(second.seqs()).toEqual(all);
    expect(other.events.map((event) => event.pbxId)).toEqual([b]);
    // The events of one read are one array for every subscriber.
    expect(first.events[19]).toBe(second.events[19]);
    for (const s of [first, second, other]) s.subscription.close();
    expect(t.ctx.events.subscriptions().has(a)).toBe(false);
  });

  it('resumes from an id with exactly the later events, stored ones first, then live ones', async () => {
    const pbxId = await newTenant(t.ctx);
    for (let n = 1; n <= 7; n++) await ping(t.ctx, pbxId, n);
    expect(await resumeFrom(t.ctx.db, pbxId, 4)).toEqual({ afterSeq: 4, reset: false });
    const resumed = collect(t.ctx.events, pbxId, 4);
    expect(await resumed.until(3)).toEqual([5, 6, 7]);
    await ping(t.ctx, pbxId, 8);
    expect(await resumed.until(4)).toEqual([5, 6, 7, 8]);
    expect(resumed.subscription.lastSeq).toBe(8);
    resumed.subscription.close();
  });

  it('serves a subscriber that joins behind the others while their read is under way', async () => {
    const pbxId = await newTenant(t.ctx);
    for (let n = 1; n <= 10; n++) await ping(t.ctx, pbxId, n);
    const ahead = collect(t.ctx.events, pbxId, 10);
    let behind: ReturnType<typeof collect> | undefined;
    await t.ctx.db.transaction().execute(async (trx) => {
      // On SQLite the read this wakes waits for the transaction, starting after 10; the late subscriber joins meanwhile.
      await ping(t.ctx, pbxId, 11, trx);
      await sleep(10);
      behind = collect(t.ctx.events, pbxId, 3);
    });
    expect(await ahead.until(1)).toEqual([11]);
    expect(await behind!.until(8)).toEqual([4, 5, 6, 7, 8, 9, 10, 11]);
    await sleep(50);
    expect(ahead.seqs()).toEqual([11]);
    expect(behind!.seqs()).toEqual([4, 5, 6, 7, 8, 9, 10, 11]);
    ahead.subscription.close();
    behind!.subscription.close();
  });

  it('reads a long backlog in batches, each handed over once', async () => {
    const pbxId = await newTenant(t.ctx);
    await t.ctx.db.transaction().execute(async (trx) => {
      for (let n = 1; n <= 1200; n++) await ping(t.ctx, pbxId, n, trx);
    });
    const seen = collect(t.ctx.events, pbxId, 100);
    expect(await seen.until(1100)).toEqual(Array.from({ length: 1100 }, (_, i) => i + 101));
    expect(seen.batches).toEqual([500, 500, 100]);
    seen.subscription.close();
  });

  it('starts a new client at the newest event, and resets a client whose id is pruned or never given', async () => {
    const pbxId = await newTenant(t.ctx);
    expect(await resumeFrom(t.ctx.db, pbxId, null)).toEqual({ afterSeq: 0, reset: false });
    expect(await resumeFrom(t.ctx.db, pbxId, 0)).toEqual({ afterSeq: 0, reset: false });
    expect(await oldestRetainedSeq(t.ctx.db, pbxId)).toBe(1);
    for (let n = 1; n <= 3; n++) await ping(t.ctx, pbxId, n);
    t.clock.advance((t.ctx.config.eventRetentionHours + 1) * 3600);
    for (let n = 4; n <= 5; n++) await ping(t.ctx, pbxId, n);
    expect(await t.ctx.events.pruneNow()).toBeGreaterThanOrEqual(3);
    expect((await readEvents(t.ctx.db, pbxId, 0, 10)).map((event) => event.seq)).toEqual([4, 5]);
    expect(await oldestRetainedSeq(t.ctx.db, pbxId)).toBe(4);
    expect(await resumeFrom(t.ctx.db, pbxId, null)).toEqual({ afterSeq: 5, reset: false });
    expect(await resumeFrom(t.ctx.db, pbxId, 3)).toEqual({ afterSeq: 3, reset: false });
    expect(await resumeFrom(t.ctx.db, pbxId, 2)).toEqual({ afterSeq: 5, reset: true });
    expect(await resumeFrom(t.ctx.db, pbxId, 6)).toEqual({ afterSeq: 5, reset: true });
    expect(await resumeFrom(t.ctx.db, pbxId, -1)).toEqual({ afterSeq: 5, reset: true });
    // Everything pruned: the next number is where a client that saw them all resumes.
    t.clock.advance((t.ctx.config.eventRetentionHours + 1) * 3600);
    await t.ctx.events.pruneNow();
    expect(await oldestRetainedSeq(t.ctx.db, pbxId)).toBe(6);
    expect(await resumeFrom(t.ctx.db, pbxId, 5)).toEqual({ afterSeq: 5, reset: false });
    expect(await resumeFrom(t.ctx.db, pbxId, 4)).toEqual({ afterSeq: 5, reset: true });
    expect(await ping(t.ctx, pbxId, 6)).toBe(6);
  });

  it('stops with the app: a closed bus takes no subscriber', async () => {
    const other = await buildTestApp();
    const pbxId = await newTenant(other.ctx);
    const seen = collect(other.ctx.events, pbxId, 0);
    await ping(other.ctx, pbxId, 1);
    expect(await seen.until(1)).toEqual([1]);
    await other.close();
    expect(() => other.ctx.events.subscribe(pbxId, 0, () => undefined)).toThrow(/closed/);
  });
});

describe.runIf(onPostgres)('live events across instances (PostgreSQL)', () => {
  let database: Database;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    database = await openTestDatabase();
    a = await buildTestApp({ database });
    b = await buildTestApp({ database, clock: a.clock });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.close();
  });

  it('delivers an event published on one instance to a subscriber on the other', async () => {
    const pbxId = await newTenant(a.ctx);
    const onB = collect(b.ctx.events, pbxId, 0);
    const onA = collect(a.ctx.events, pbxId, 0);
    // B's LISTEN connection is up once a first event reaches it (its catch-up read runs at once).
    await ping(a.ctx, pbxId, 1);
    expect(await onB.until(1)).toEqual([1]);
    const started = Date.now();
    await ping(a.ctx, pbxId, 2);
    await ping(b.ctx, pbxId, 3);
    expect(await onB.until(3)).toEqual([1, 2, 3]);
    expect(await onA.until(3)).toEqual([1, 2, 3]);
    // Through NOTIFY, well before the safety poll (5 s).
    expect(Date.now() - started).toBeLessThan(2000);
    onA.subscription.close();
    onB.subscription.close();
  });

  it('numbers 50 concurrent transactions of one tenant 1..50, delivered in number order', async () => {
    const pbxId = await newTenant(a.ctx);
    const seen = collect(b.ctx.events, pbxId, 0);
    const seqs = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        a.ctx.db.transaction().execute(async (trx) => {
          await sleep(Math.random() * 10);
          const seq = await ping(a.ctx, pbxId, i + 1, trx);
          // Held a moment after publishing, so the others queue on the tenant's counter.
          await sleep(Math.random() * 5);
          return seq;
        }),
      ),
    );
    const all = Array.from({ length: 50 }, (_, i) => i + 1);
    expect([...seqs].sort((x, y) => x - y)).toEqual(all);
    expect(await seen.until(50, 5000)).toEqual(all);
    // Stored under the number its own transaction was given.
    const stored = await readEvents(a.ctx.db, pbxId, 0, 100);
    expect(stored.map((event) => seqs[(event.data as { n: number }).n - 1])).toEqual(all);
    seen.subscription.close();
  });

  it('listens again after losing its connection, and reads what it missed', async () => {
    const bus = new EventBus({
      db: a.ctx.db,
      dialect: 'postgres',
      clock: a.clock,
      retentionHours: 24,
      listenClient: database.listenClient,
      // Only the reconnect can deliver within this test.
      pollIntervalMs: 600_000,
    });
    try {
      const pbxId = await newTenant(a.ctx);
      const seen = collect(bus, pbxId, 0);
      await ping(a.ctx, pbxId, 1);
      expect(await seen.until(1)).toEqual([1]);
      const killed = await sql<{ pid: number }>`
        select pg_terminate_backend(pid) as killed, pid from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and query = 'listen pbx_events'`.execute(a.ctx.db);
      // This bus's connection among them (the apps' reconnect too).
      expect(killed.rows.length).toBeGreaterThanOrEqual(1);
      await ping(a.ctx, pbxId, 2);
      expect(await seen.until(2, 4000)).toEqual([1, 2]);
      await ping(a.ctx, pbxId, 3);
      expect(await seen.until(3)).toEqual([1, 2, 3]);
    } finally {
      await bus.close();
    }
  });
});
