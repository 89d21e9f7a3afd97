import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB, UserTable } from '../../../db/schema.js';
import { matchesPattern, searchPattern } from '../../../db/search.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { TrashedFilter } from '../../../db/soft-delete.js';
import type { Clock } from '../../../platform/clock.js';
import { hashPassword } from '../../../platform/crypto.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { pagedQuery } from '../../../db/paging.js';
import { trashedScope } from '../../../db/soft-delete.js';

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

/** A live (not soft-deleted) user of the tenant; `withTrashed` also finds deleted ones. */
export function findUser(db: Kysely<DB>, tenant: Tenant, id: string, options: { withTrashed?: boolean } = {}) {
  let query = db.selectFrom('users').selectAll().where('id', '=', id).where('pbx_id', '=', tenant.pbxId);
  if (!options.withTrashed) query = query.where('deleted_at', 'is', null);
  return query.executeTakeFirst();
}

export function findUsersByIds(db: Kysely<DB>, tenant: Tenant, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('users')
    .selectAll()
    .where('pbx_id', '=', tenant.pbxId)
    .where('id', 'in', [...ids])
    .execute();
}

/** Every PBX at once: only an operator-wide internal key looks users up this way. */
export const EVERY_PBX = 'every-pbx';

/** By e-mail (unique on the platform) within a tenant, or within every PBX for an operator-wide key. */
export function findLiveUserByEmail(db: Kysely<DB>, scope: Tenant | typeof EVERY_PBX, email: string) {
  let query = db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).where('deleted_at', 'is', null);
  if (scope !== EVERY_PBX) query = query.where('pbx_id', '=', scope.pbxId);
  return query.executeTakeFirst();
}

export interface UserFilters {
  search?: string;
  status?: 'active' | 'disabled';
  role?: 'admin' | 'user';
  trashed?: TrashedFilter;
}

export const USER_SORTS = ['first_name', 'last_name', 'email', 'created_at'] as const;

/** What selects users: the tenant, and each filter that is set (`search` as a pattern). */
interface UserScope {
  pbxId: string;
  search?: string;
  status?: UserFilters['status'];
  role?: UserFilters['role'];
  trashed?: TrashedFilter;
}

function usersOf(db: Kysely<DB>, scope: UserScope) {
  let query = db.selectFrom('users').where('pbx_id', '=', scope.pbxId);
  query = trashedScope(query, scope.trashed);
  if (scope.search) query = query.where(matchesPattern(['first_name', 'last_name', 'email'], scope.search));
  if (scope.status) query = query.where('status', '=', scope.status);
  if (scope.role) query = query.where('role', '=', scope.role);
  return query;
}

const userPage = pagedQuery({ scoped: usersOf, columns: (query) => query.selectAll(), choices: ['trashed'] });

export function listUsers(db: Kysely<DB>, tenant: Tenant, filters: UserFilters, sort: SortTerm[], page: PageRequest) {
  return userPage(db, { pbxId: tenant.pbxId, ...filters, search: searchPattern(filters.search) }, sort, page);
}

export async function updateUser(db: Kysely<DB>, tenant: Tenant, id: string, changes: Updateable<UserTable>): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}
