import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { matchesPattern, searchPattern } from '../../../db/search.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { TrashedFilter } from '../../../db/soft-delete.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { PhoneNumberTable } from '../directory.tables.js';
import { pagedQuery } from '../../../db/paging.js';
import { reusableQuery } from '../../../db/reusable-query.js';
import { trashedScope } from '../../../db/soft-delete.js';

export type PhoneNumberRow = Selectable<PhoneNumberTable>;

export interface PhoneNumberFilters {
  search?: string;
  destinationType?: string;
  trashed?: TrashedFilter;
}

/** What selects phone numbers: the tenant, and each filter that is set (`search` as a pattern). */
interface PhoneNumberScope {
  pbxId: string;
  search?: string;
  destinationType?: string;
  trashed?: TrashedFilter;
}

function numbersOf(db: Kysely<DB>, scope: PhoneNumberScope) {
  let query = db.selectFrom('phone_numbers').where('pbx_id', '=', scope.pbxId);
  query = trashedScope(query, scope.trashed);
  if (scope.search) query = query.where(matchesPattern(['number', 'label'], scope.search));
  if (scope.destinationType) query = query.where('destination_type', '=', scope.destinationType);
  return query;
}

const phoneNumberPage = pagedQuery({ scoped: numbersOf, columns: (query) => query.selectAll(), choices: ['trashed'] });

export function listPhoneNumbers(db: Kysely<DB>, tenant: Tenant, filters: PhoneNumberFilters, sort: SortTerm[], page: PageRequest) {
  return phoneNumberPage(db, { pbxId: tenant.pbxId, ...filters, search: searchPattern(filters.search) }, sort, page);
}

export function findPhoneNumber(db: Kysely<DB>, tenant: Tenant, id: string, options: { withTrashed?: boolean } = {}) {
  return numbersOf(db, { pbxId: tenant.pbxId, trashed: options.withTrashed ? 'with' : 'without' })
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertPhoneNumber(db: Kysely<DB>, row: Insertable<PhoneNumberTable>): Promise<void> {
  await db.insertInto('phone_numbers').values(row).execute();
}

export async function updatePhoneNumber(db: Kysely<DB>, tenant: Tenant, id: string, changes: Updateable<PhoneNumberTable>): Promise<void> {
  await db.updateTable('phone_numbers').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}

/** Where the tenant's live numbers lead (routing's validation and its frozen snapshot), optionally only those leading to `destinationTypes`. */
export function numberDestinations(db: Kysely<DB>, tenant: Tenant, destinationTypes?: readonly string[]) {
  let query = db
    .selectFrom('phone_numbers')
    .select(['id', 'number', 'destination_type', 'destination_id'])
    .where('pbx_id', '=', tenant.pbxId)
    .where('deleted_at', 'is', null);
  if (destinationTypes) query = query.where('destination_type', 'in', [...destinationTypes]);
  return query.execute();
}

/** Read on every simulated call: compiled once per database. */
const numberDestinationOf = reusableQuery((db, pbxId: string, e164: string) =>
  db
    .selectFrom('phone_numbers')
    .select(['id', 'number', 'label', 'destination_type', 'destination_id'])
    .where('pbx_id', '=', pbxId)
    .where('number', '=', e164)
    .where('deleted_at', 'is', null),
);

/** The tenant's live number `e164`, with where it leads (the route simulator). */
export async function numberDestination(db: Kysely<DB>, tenant: Tenant, e164: string) {
  const [row] = await numberDestinationOf(db, tenant.pbxId, e164);
  return row;
}

/** Points the tenant's number labelled `label` at a routing destination (the demo seed's main line); its id. */
export async function routeNumberByLabel(db: Kysely<DB>, tenant: Tenant, label: string, destination: { type: 'call_flow'; id: string }, at: string) {
  const row = await db
    .updateTable('phone_numbers')
    .set({ destination_type: destination.type, destination_id: destination.id, updated_at: at })
    .where('pbx_id', '=', tenant.pbxId)
    .where('label', '=', label)
    .returning(['id'])
    .executeTakeFirstOrThrow();
  return row.id;
}
