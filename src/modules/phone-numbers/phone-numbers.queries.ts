import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB } from '../../db/schema.js';
import { matchesSearch } from '../../db/search.js';
import type { PageRequest, SortTerm } from '../../http/list-query.js';
import type { TrashedFilter } from '../../http/soft-delete.js';
import type { Tenant } from '../../platform/tenancy.js';
import type { PhoneNumberTable } from '../directory.tables.js';
import type { PHONE_NUMBER_SORTS } from './phone-numbers.schemas.js';

export interface PhoneNumberFilters {
  search?: string;
  destinationType?: string;
  trashed?: TrashedFilter;
}

function numbersOf(db: Kysely<DB>, tenant: Tenant, filters: PhoneNumberFilters) {
  let query = db.selectFrom('phone_numbers').where('pbx_id', '=', tenant.pbxId);
  const trashed = filters.trashed ?? 'without';
  if (trashed === 'without') query = query.where('deleted_at', 'is', null);
  if (trashed === 'only') query = query.where('deleted_at', 'is not', null);
  if (filters.search) query = query.where(matchesSearch(['number', 'label'], filters.search));
  if (filters.destinationType) query = query.where('destination_type', '=', filters.destinationType);
  return query;
}

export async function listPhoneNumbers(db: Kysely<DB>, tenant: Tenant, filters: PhoneNumberFilters, sort: SortTerm[], page: PageRequest) {
  let query = numbersOf(db, tenant, filters).selectAll();
  for (const term of sort) query = query.orderBy(term.field as (typeof PHONE_NUMBER_SORTS)[number], term.direction);
  const [rows, count] = await Promise.all([
    query.orderBy('id').limit(page.perPage).offset(page.offset).execute(),
    numbersOf(db, tenant, filters).select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export function findPhoneNumber(db: Kysely<DB>, tenant: Tenant, id: string, options: { withTrashed?: boolean } = {}) {
  return numbersOf(db, tenant, { trashed: options.withTrashed ? 'with' : 'without' }).selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertPhoneNumber(db: Kysely<DB>, row: Insertable<PhoneNumberTable>): Promise<void> {
  await db.insertInto('phone_numbers').values(row).execute();
}

export async function updatePhoneNumber(db: Kysely<DB>, tenant: Tenant, id: string, changes: Updateable<PhoneNumberTable>): Promise<void> {
  await db.updateTable('phone_numbers').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}
