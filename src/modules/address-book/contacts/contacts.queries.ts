import type { Insertable, Selectable } from 'kysely';
import { likePattern, matchesPattern, searchPattern } from '../../../db/search.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { TrashedFilter } from '../../../db/soft-delete.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { ContactGroupTable, ContactNumberTable, ContactTable } from '../address-book.tables.js';
import { pagedQuery } from '../../../db/paging.js';
import { valuesQuery } from '../../../db/values-query.js';
import { trashedScope } from '../../../db/soft-delete.js';
import type { Executor } from '../../../db/database.js';
import { whereVisibleTo, type ContactActor } from './contact.policy.js';

export type ContactRow = Selectable<ContactTable>;
export type NumberRow = Selectable<ContactNumberTable>;
export type GroupRow = Selectable<ContactGroupTable>;
export interface UserRefRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
}

export interface ContactFilters {
  search?: string;
  groupId?: string;
  isPrivate?: boolean;
  isFavorite?: boolean;
  isBlocked?: boolean;
  vip?: boolean;
  trashed?: TrashedFilter;
}

/**
 * What selects the contacts someone sees: the tenant, the actor flattened into query values (the
 * user absent for an API key), and the trashed filter.
 */
interface VisibleScope {
  pbxId: string;
  userId?: string | null;
  managesGlobal?: boolean;
  trashed?: TrashedFilter;
}

const actorScope = (tenant: Tenant, actor: ContactActor): VisibleScope => ({ pbxId: tenant.pbxId, userId: actor.userId, managesGlobal: actor.managesGlobal });

/** The rows of the tenant the actor may see, as the policy's SQL says. */
function visible(db: Executor, scope: VisibleScope) {
  const actor: ContactActor = { userId: scope.userId ?? null, managesGlobal: scope.managesGlobal === true };
  const query = db
    .selectFrom('contacts')
    .where('contacts.pbx_id', '=', scope.pbxId)
    .where((eb) => whereVisibleTo(eb, actor));
  return trashedScope(query, scope.trashed, 'contacts.deleted_at');
}

/**
 * What selects a contact list: what the actor sees, and each filter that is set. A search comes
 * as three patterns: `search` for names (lower case), `numberSearch` for the numbers as typed, and
 * `digitsSearch` for the normalised numbers when the search has 3 digits or more.
 */
interface ContactScope extends VisibleScope {
  search?: string;
  numberSearch?: string;
  digitsSearch?: string;
  groupId?: string;
  isPrivate?: boolean;
  isFavorite?: boolean;
  isBlocked?: boolean;
  vip?: boolean;
}

/** The patterns of a contact search (see `ContactScope`); all unset without one. */
function searchPatterns(search: string | undefined) {
  if (!search) return { search: undefined, numberSearch: undefined, digitsSearch: undefined };
  const digits = search.replace(/[^0-9]/g, '');
  return {
    search: searchPattern(search),
    numberSearch: likePattern(search),
    digitsSearch: digits.length >= 3 ? likePattern(digits.replace(/^00/, '')) : undefined,
  };
}

function filtered(db: Executor, scope: ContactScope) {
  let query = visible(db, scope);
  const { search, numberSearch, digitsSearch } = scope;
  // The caller sets `search` and `numberSearch` together.
  if (search && numberSearch) {
    query = query.where((eb) => {
      const numberMatch = eb.exists(
        eb
          .selectFrom('contact_numbers')
          .select('contact_numbers.id')
          .whereRef('contact_numbers.contact_id', '=', 'contacts.id')
          .where((n) => {
            const terms = [n('contact_numbers.phone_number_raw', 'like', numberSearch)];
            if (digitsSearch) terms.push(n('contact_numbers.phone_number', 'like', digitsSearch));
            return n.or(terms);
          }),
      );
      return eb.or([matchesPattern(['contacts.name1', 'contacts.name2', 'contacts.company_name', 'contacts.email'], search), numberMatch]);
    });
  }
  if (scope.groupId) {
    const groupId = scope.groupId;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('contact_group_members')
          .select('group_id')
          .whereRef('contact_group_members.contact_id', '=', 'contacts.id')
          .where('group_id', '=', groupId),
      ),
    );
  }
  if (scope.isPrivate !== undefined) query = query.where('contacts.private_owner_id', scope.isPrivate ? 'is not' : 'is', null);
  if (scope.vip !== undefined) query = query.where('contacts.vip', '=', scope.vip ? 1 : 0);
  const userId = scope.userId;
  if (scope.isFavorite !== undefined && userId) {
    query = query.where((eb) => {
      const favorite = eb.exists(
        eb
          .selectFrom('contact_favorites')
          .select('user_id')
          .whereRef('contact_favorites.contact_id', '=', 'contacts.id')
          .where('contact_favorites.user_id', '=', userId),
      );
      return scope.isFavorite ? favorite : eb.not(favorite);
    });
  }
  if (scope.isBlocked !== undefined) {
    query = query.where((eb) => {
      const blocked = eb.or([
        eb('contacts.is_blocked_globally', '=', 1),
        ...(userId
          ? [
              eb.exists(
                eb
                  .selectFrom('contact_blocks')
                  .select('user_id')
                  .whereRef('contact_blocks.contact_id', '=', 'contacts.id')
                  .where('contact_blocks.user_id', '=', userId),
              ),
            ]
          : []),
      ]);
      return scope.isBlocked ? blocked : eb.not(blocked);
    });
  }
  return query;
}

const contactPage = pagedQuery({ scoped: filtered, columns: (query) => query.selectAll('contacts'), choices: ['trashed'], qualify: 'contacts' });

/** A page of the contacts the actor sees. */
export function listContacts(db: Executor, tenant: Tenant, actor: ContactActor, filters: ContactFilters, sort: SortTerm[], page: PageRequest) {
  return contactPage(db, { ...actorScope(tenant, actor), ...filters, ...searchPatterns(filters.search) }, sort, page);
}

/** A contact of the tenant, whoever may see it (the service asks the policy). */
export function findContact(db: Executor, tenant: Tenant, id: string, trashed: TrashedFilter = 'without') {
  const query = db.selectFrom('contacts').selectAll('contacts').where('contacts.pbx_id', '=', tenant.pbxId).where('contacts.id', '=', id);
  return trashedScope(query, trashed, 'contacts.deleted_at').executeTakeFirst();
}

/** The contacts the actor sees whose numbers include `e164` (the lookup index: pbx_id, phone_number). */
export function contactsByNumber(db: Executor, tenant: Tenant, actor: ContactActor, e164: string) {
  return visible(db, actorScope(tenant, actor))
    .selectAll('contacts')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('contact_numbers')
          .select('contact_numbers.id')
          .whereRef('contact_numbers.contact_id', '=', 'contacts.id')
          .where('contact_numbers.pbx_id', '=', tenant.pbxId)
          .where('contact_numbers.phone_number', '=', e164),
      ),
    )
    .orderBy('contacts.private_owner_id', 'desc')
    .orderBy('contacts.name1')
    .limit(20)
    .execute();
}

export interface ContactRelations {
  numbers: Map<string, NumberRow[]>;
  groups: Map<string, Array<GroupRow & { users: UserRefRow[] }>>;
  blockedBy: Map<string, UserRefRow[]>;
  favorites: Set<string>;
  owners: Map<string, UserRefRow>;
}

const userRef = ['users.id', 'users.first_name', 'users.last_name', 'users.email'] as const;

// A page's relations, each compiled once per number of ids (a list loads them on every request).
const numbersOfContacts = valuesQuery((db, v: { contactIds: readonly string[] }) =>
  db.selectFrom('contact_numbers').selectAll().where('contact_id', 'in', v.contactIds).orderBy('contact_id').orderBy('position'),
);
const groupsOfContacts = valuesQuery((db, v: { contactIds: readonly string[] }) =>
  db
    .selectFrom('contact_group_members')
    .innerJoin('contact_groups', 'contact_groups.id', 'contact_group_members.group_id')
    .selectAll('contact_groups')
    .select('contact_group_members.contact_id')
    .where('contact_group_members.contact_id', 'in', v.contactIds)
    .orderBy('contact_groups.name'),
);
const blocksOfContacts = valuesQuery((db, v: { contactIds: readonly string[] }) =>
  db
    .selectFrom('contact_blocks')
    .innerJoin('users', 'users.id', 'contact_blocks.user_id')
    .select([...userRef, 'contact_blocks.contact_id'])
    .where('contact_blocks.contact_id', 'in', v.contactIds)
    .orderBy('users.last_name'),
);
const favoritesOfContacts = valuesQuery((db, v: { userId: string; contactIds: readonly string[] }) =>
  db.selectFrom('contact_favorites').select('contact_id').where('user_id', '=', v.userId).where('contact_id', 'in', v.contactIds),
);
const usersByIds = valuesQuery((db, v: { userIds: readonly string[] }) =>
  db
    .selectFrom('users')
    .select([...userRef])
    .where('id', 'in', v.userIds),
);
const usersOfGroups = valuesQuery((db, v: { groupIds: readonly string[] }) =>
  db
    .selectFrom('contact_group_users')
    .innerJoin('users', 'users.id', 'contact_group_users.user_id')
    .select([...userRef, 'contact_group_users.group_id'])
    .where('contact_group_users.group_id', 'in', v.groupIds)
    .orderBy('users.last_name')
    .orderBy('users.first_name'),
);

/** Numbers, groups (with their users), blocks, the viewer's favorites and private owners of a page of contacts, in five queries. */
export async function loadRelations(db: Executor, contacts: ContactRow[], userId: string | null): Promise<ContactRelations> {
  const ids = contacts.map((c) => c.id);
  const relations: ContactRelations = { numbers: new Map(), groups: new Map(), blockedBy: new Map(), favorites: new Set(), owners: new Map() };
  if (ids.length === 0) return relations;
  const push = <T>(map: Map<string, T[]>, key: string, value: T) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  const ownerIds = [...new Set(contacts.map((c) => c.private_owner_id).filter((id): id is string => !!id))];
  const [numbers, memberships, blocks, favorites, owners] = await Promise.all([
    numbersOfContacts(db, { contactIds: ids }),
    groupsOfContacts(db, { contactIds: ids }),
    blocksOfContacts(db, { contactIds: ids }),
    userId ? favoritesOfContacts(db, { userId, contactIds: ids }) : Promise.resolve([]),
    ownerIds.length ? usersByIds(db, { userIds: ownerIds }) : Promise.resolve([]),
  ]);
  for (const row of numbers) push(relations.numbers, row.contact_id, row);
  const groupUsers = await groupUsersOf(db, [...new Set(memberships.map((m) => m.id))]);
  for (const { contact_id, ...group } of memberships) push(relations.groups, contact_id, { ...group, users: groupUsers.get(group.id) ?? [] });
  for (const { contact_id, ...user } of blocks) push(relations.blockedBy, contact_id, user);
  for (const row of favorites) relations.favorites.add(row.contact_id);
  for (const owner of owners) relations.owners.set(owner.id, owner);
  return relations;
}

export async function groupUsersOf(db: Executor, groupIds: string[]): Promise<Map<string, UserRefRow[]>> {
  const map = new Map<string, UserRefRow[]>();
  if (groupIds.length === 0) return map;
  const rows = await usersOfGroups(db, { groupIds });
  for (const { group_id, ...user } of rows) {
    const list = map.get(group_id);
    if (list) list.push(user);
    else map.set(group_id, [user]);
  }
  return map;
}

export function insertContactRow(db: Executor, row: Insertable<ContactTable>) {
  return db.insertInto('contacts').values(row).execute();
}

export function updateContactRow(db: Executor, tenant: Tenant, id: string, values: Partial<Insertable<ContactTable>>) {
  return db.updateTable('contacts').set(values).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}

export function numbersOf(db: Executor, contactId: string) {
  return db.selectFrom('contact_numbers').selectAll().where('contact_id', '=', contactId).orderBy('position').execute();
}

export function deleteNumbersExcept(db: Executor, contactId: string, keepIds: string[]) {
  let query = db.deleteFrom('contact_numbers').where('contact_id', '=', contactId);
  if (keepIds.length) query = query.where('id', 'not in', keepIds);
  return query.execute();
}

export function updateNumberRow(db: Executor, id: string, values: Partial<Insertable<ContactNumberTable>>) {
  return db.updateTable('contact_numbers').set(values).where('id', '=', id).execute();
}

export function insertNumberRows(db: Executor, rows: Insertable<ContactNumberTable>[]) {
  return rows.length ? db.insertInto('contact_numbers').values(rows).execute() : Promise.resolve([]);
}

/** Speed dials among `speedDials` already used in the PBX by another contact. */
export async function takenSpeedDials(db: Executor, tenant: Tenant, speedDials: string[], exceptContactId: string | null): Promise<Set<string>> {
  if (speedDials.length === 0) return new Set();
  let query = db.selectFrom('contact_numbers').select('speed_dial').where('pbx_id', '=', tenant.pbxId).where('speed_dial', 'in', speedDials);
  if (exceptContactId) query = query.where('contact_id', '!=', exceptContactId);
  return new Set((await query.execute()).map((r) => r.speed_dial as string));
}

export async function existingGroupIds(db: Executor, tenant: Tenant, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('contact_groups').select('id').where('pbx_id', '=', tenant.pbxId).where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

export async function replaceGroups(db: Executor, contactId: string, groupIds: string[]) {
  await db.deleteFrom('contact_group_members').where('contact_id', '=', contactId).execute();
  if (groupIds.length)
    await db
      .insertInto('contact_group_members')
      .values(groupIds.map((group_id) => ({ group_id, contact_id: contactId })))
      .execute();
}

export function findUserInPbx(db: Executor, tenant: Tenant, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'allow_manage_global_contacts'])
    .where('id', '=', userId)
    .where('pbx_id', '=', tenant.pbxId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export type MarkTable = 'contact_favorites' | 'contact_blocks';

export function addMark(db: Executor, table: MarkTable, contactId: string, userId: string, at: string) {
  return db
    .insertInto(table)
    .values({ contact_id: contactId, user_id: userId, created_at: at })
    .onConflict((oc) => oc.columns(['contact_id', 'user_id']).doNothing())
    .execute();
}

export function removeMark(db: Executor, table: MarkTable, contactId: string, userId: string) {
  return db.deleteFrom(table).where('contact_id', '=', contactId).where('user_id', '=', userId).execute();
}
