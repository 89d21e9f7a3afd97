import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import type { DB, UserTable } from '../../db/schema.js';
import type { Clock } from '../../platform/clock.js';
import { hashPassword } from '../../platform/crypto.js';

export type NewUser = Omit<Insertable<UserTable>, 'id' | 'created_at' | 'updated_at' | 'password_hash' | 'first_name' | 'last_name'> & {
  password?: string | null;
  first_name?: string;
  last_name?: string;
};

/** Inserts a user with its password hashed; e-mail addresses are kept in lower case. */
export async function insertUser(db: Kysely<DB>, clock: Clock, user: NewUser): Promise<{ id: string; pbx_id: string; email: string }> {
  const { password, ...fields } = user;
  const now = clock.now().toISOString();
  const row = {
    ...fields,
    id: randomUUID(),
    email: fields.email.toLowerCase(),
    first_name: fields.first_name ?? '',
    last_name: fields.last_name ?? '',
    password_hash: password ? await hashPassword(password) : null,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('users').values(row).execute();
  return { id: row.id, pbx_id: row.pbx_id, email: row.email };
}
