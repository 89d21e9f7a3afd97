import type { Kysely, Transaction } from 'kysely';
import type { DB, Timestamp } from '../db/schema.js';

type Db = Kysely<DB> | Transaction<DB>;

/**
 * Takes or renews a lease until `until`: granted when nobody holds it, the caller already does,
 * or the holder let it lapse (`expires_at <= now`). One upsert, so of several instances racing
 * for a free lease exactly one gets it, on SQLite and PostgreSQL alike.
 */
export async function acquireLease(db: Db, name: string, holder: string, now: Timestamp, until: Timestamp): Promise<boolean> {
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
export async function releaseLease(db: Db, name: string, holder: string): Promise<void> {
  await db.deleteFrom('leases').where('name', '=', name).where('holder', '=', holder).execute();
}
