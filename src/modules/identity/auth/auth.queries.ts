import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB, OneTimeSecretTable } from '../../../db/schema.js';

export function findUserByEmail(db: Kysely<DB>, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'pbx_id', 'email', 'password_hash', 'status', 'first_name'])
    .where('email', '=', email.toLowerCase())
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/**
 * Replaces a password hash made under an older scheme, only if it is still the one verified (a
 * password changed meanwhile is kept).
 */
export async function replacePasswordHash(db: Kysely<DB>, userId: string, verified: string, replacement: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: replacement }).where('id', '=', userId).where('password_hash', '=', verified).execute();
}

export function findUserById(db: Kysely<DB>, id: string) {
  return db
    .selectFrom('users')
    .select(['id', 'pbx_id', 'email', 'password_hash', 'status', 'first_name'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function insertOneTimeSecret(db: Kysely<DB>, row: Omit<OneTimeSecretTable, 'id' | 'attempts' | 'consumed_at'>): Promise<void> {
  await db
    .insertInto('one_time_secrets')
    .values({ ...row, id: randomUUID(), attempts: 0, consumed_at: null })
    .execute();
}

/** The newest unconsumed secret of a purpose for a user. */
export function latestOpenSecret(db: Kysely<DB>, userId: string, purpose: OneTimeSecretTable['purpose']) {
  return db
    .selectFrom('one_time_secrets')
    .selectAll()
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('consumed_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function findSecretByHash(db: Kysely<DB>, hash: string, purpose: OneTimeSecretTable['purpose']) {
  return db.selectFrom('one_time_secrets').selectAll().where('secret_hash', '=', hash).where('purpose', '=', purpose).executeTakeFirst();
}

/** Marks a secret used; false when another request consumed it first (single use under races). */
export async function consumeSecret(db: Kysely<DB>, id: string, at: string): Promise<boolean> {
  const result = await db.updateTable('one_time_secrets').set({ consumed_at: at }).where('id', '=', id).where('consumed_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function countFailedAttempt(db: Kysely<DB>, id: string): Promise<void> {
  await db
    .updateTable('one_time_secrets')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

/** A new code replaces the open ones, so only the latest code works. */
export async function retireOpenSecrets(db: Kysely<DB>, userId: string, purpose: OneTimeSecretTable['purpose'], at: string): Promise<void> {
  await db
    .updateTable('one_time_secrets')
    .set({ consumed_at: at })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('consumed_at', 'is', null)
    .execute();
}
