import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Clock } from './clock.js';
import type { DB, Timestamp } from '../db/schema.js';
import type { Executor } from '../db/database.js';

/**
 * Takes or renews a lease until `until`: granted when nobody holds it, the caller already does,
 * or the holder let it lapse (`expires_at <= now`). One upsert, so of several instances racing
 * for a free lease exactly one gets it, on SQLite and PostgreSQL alike.
 */
export async function acquireLease(db: Executor, name: string, holder: string, now: Timestamp, until: Timestamp): Promise<boolean> {
  const row = await db
    .insertInto('leases')
    .values({ name, holder, expires_at: until })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ holder, expires_at: until })
        .where((eb) => eb.or([eb('leases.holder', '=', holder), eb('leases.expires_at', '<=', now)])),
    )
    .returning('holder')
    .executeTakeFirst();
  return row?.holder === holder;
}

/** Gives a lease up at once (only the holder can), so another instance need not wait for it to lapse. */
export async function releaseLease(db: Executor, name: string, holder: string): Promise<void> {
  await db.deleteFrom('leases').where('name', '=', name).where('holder', '=', holder).execute();
}

/**
 * Runs `work` while holding the lease `name`, waiting for it when another instance (or command)
 * holds it: what must happen once however many instances start together (seeding the demo data).
 * The lease is renewed while `work` runs and lapses on its own if this process dies.
 */
export async function withLease<T>(
  db: Kysely<DB>,
  clock: Clock,
  name: string,
  work: () => Promise<T>,
  options: { ttlSeconds?: number; waitSeconds?: number } = {},
): Promise<T> {
  const holder = randomUUID();
  const ttlMs = (options.ttlSeconds ?? 60) * 1000;
  const until = () => new Date(clock.nowMs() + ttlMs).toISOString();
  const giveUpAt = Date.now() + (options.waitSeconds ?? 600) * 1000;
  while (!(await acquireLease(db, name, holder, clock.now().toISOString(), until()))) {
    if (Date.now() > giveUpAt) throw new Error(`lease ${name}: still held by another instance after ${options.waitSeconds ?? 600} s`);
    await sleep(200);
  }
  const renewal = setInterval(() => void acquireLease(db, name, holder, clock.now().toISOString(), until()).catch(() => undefined), ttlMs / 3);
  try {
    return await work();
  } finally {
    clearInterval(renewal);
    await releaseLease(db, name, holder);
  }
}
