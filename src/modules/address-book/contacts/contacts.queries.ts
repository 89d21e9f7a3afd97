import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { matchesSearch } from '../../../db/search.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import { likePattern } from '../../../db/search.js';
import type { TrashedFilter } from '../../../http/soft-delete.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { ContactGroupTable, ContactNumberTable, ContactTable } from '../address-book.tables.js';
import { fetchPage } from '../../../db/paging.js';
import { trashedScope } from '../../../http/soft-delete.js';

type Db = Kysely<DB> | Transaction<DB>;
export type ContactRow = Selectable<ContactTable>;
export type NumberRow = Selectable<ContactNumberTable>;
export type GroupRow = Selectable<ContactGroupTable>;
export interface UserRefRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
}

/**
 * Who is looking: a user sees the PBX's global contacts and its own private ones; an API key
 * (userId null) sees global contacts only.
 */
export interface Viewer {
  tenant: Tenant;
  userId: string | null;
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

function visible(db: Db, viewer: Viewer, trashed: TrashedFilter = 'without') {
  let query = db.selectFrom('contacts').where('contacts.pbx_id', '=', viewer.tenant.pbxId);
  const userId = viewer.userId;
  query = userId
    ? query.where((eb) => eb.or([eb('contacts.private_owner_id', 'is', null), eb('contacts.private_owner_id', '=', userId)]))
    : query.where('contacts.private_owner_id', 'is', null);
  return trashedScope(query, trashed, 'contacts.deleted_at');
}

function filtered(db: Db, viewer: Viewer, filters: ContactFilters) {
  let query = visible(db, viewer, filters.trashed);
  if (filters.search) {
    const search = filters.search;
    const digits = search.replace(/[^0-9]/g, '');
    query = query.where((eb) => {
      const numberMatch = eb.exists(
        eb
          .selectFrom('contact_numbers')
          .select('contact_numbers.id')
          .whereRef('contact_numbers.contact_id', '=', 'contacts.id')
          .where((n) => {
            const terms = [n('contact_numbers.phone_number_raw', 'like', likePattern(search))];
            if (digits.length >= 3) terms.push(n('contact_numbers.phone_number', 'like', likePattern(digits.replace(/^00/, ''))));
            return n.or(terms);
          }),
      );
      return eb.or([matchesSearch(['contacts.name1', 'contacts.name2', 'contacts.company_name', 'contacts.email'], search), numberMatch]);
    });
  }
  if (filters.groupId) {
    const groupId = filters.groupId;
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
  if (filters.isPrivate !== undefined) query = query.where('contacts.private_owner_id', filters.isPrivate ? 'is not' : 'is', null);
  if (filters.vip !== undefined) query = query.where('contacts.vip', '=', filters.vip ? 1 : 0);
  const userId = viewer.userId;
  if (filters.isFavorite !== undefined && userId) {
    query = query.where((eb) => {
      const favorite = eb.exists(
        eb
          .selectFrom('contact_favorites')
          .select('user_id')
          .whereRef('contact_favorites.contact_id', '=', 'contacts.id')
          .where('contact_favorites.user_id', '=', userId),
      );
      return filters.isFavorite ? favorite : eb.not(favorite);
    });
  }
  if (filters.isBlocked !== undefined) {
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
      return filters.isBlocked ? blocked : eb.not(blocked);
    });
  }
  return query;
}

export async function listContacts(db: Db, viewer: Viewer, filters: ContactFilters, sort: SortTerm[], page: PageRequest) {
  return fetchPage(
    () => filtered(db, viewer, filters),
    (query) => query.selectAll('contacts'),
    sort,
    page,
    { qualify: 'contacts' },
  );
}

export function findVisibleContact(db: Db, viewer: Viewer, id: string, trashed: TrashedFilter = 'without') {
  return visible(db, viewer, trashed).selectAll('contacts').where('contacts.id', '=', id).executeTakeFirst();
}

/** Contacts whose numbers include `e164` (the lookup index: pbx_id, phone_number). */
export function contactsByNumber(db: Db, viewer: Viewer, e164: string) {
  return visible(db, viewer)
    .selectAll('contacts')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('contact_numbers')
          .select('contact_numbers.id')
          .whereRef('contact_numbers.contact_id', '=', 'contacts.id')
          .where('contact_numbers.pbx_id', '=', viewer.tenant.pbxId)
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

/** Numbers, groups (with their users), blocks, the viewer's favorites and private owners of a page of contacts, in five queries. */
export async function loadRelations(db: Db, contacts: ContactRow[], userId: string | null): Promise<ContactRelations> {
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
    db.selectFrom('contact_numbers').selectAll().where('contact_id', 'in', ids).orderBy('contact_id').orderBy('position').execute(),
    db
      .selectFrom('contact_group_members')
      .innerJoin('contact_groups', 'contact_groups.id', 'contact_group_members.group_id')
      .selectAll('contact_groups')
      .select('contact_group_members.contact_id')
      .where('contact_group_members.contact_id', 'in', ids)
      .orderBy('contact_groups.name')
      .execute(),
    db
      .selectFrom('contact_blocks')
      .innerJoin('users', 'users.id', 'contact_blocks.user_id')
      .select([...userRef, 'contact_blocks.contact_id'])
      .where('contact_blocks.contact_id', 'in', ids)
      .orderBy('users.last_name')
      .execute(),
    userId
      ? db.selectFrom('contact_favorites').select('contact_id').where('user_id', '=', userId).where('contact_id', 'in', ids).execute()
      : Promise.resolve([]),
    ownerIds.length
      ? db
          .selectFrom('users')
          .select([...userRef])
          .where('id', 'in', ownerIds)
          .execute()
      : Promise.resolve([]),
  ]);
  for (const row of numbers) push(relations.numbers, row.contact_id, row);
  const groupUsers = await groupUsersOf(db, [...new Set(memberships.map((m) => m.id))]);
  for (const { contact_id, ...group } of memberships) push(relations.groups, contact_id, { ...group, users: groupUsers.get(group.id) ?? [] });
  for (const { contact_id, ...user } of blocks) push(relations.blockedBy, contact_id, user);
  for (const row of favorites) relations.favorites.add(row.contact_id);
  for (const owner of owners) relations.owners.set(owner.id, owner);
  return relations;
}

export async function groupUsersOf(db: Db, groupIds: string[]): Promise<Map<string, UserRefRow[]>> {
  const map = new Map<string, UserRefRow[]>();
  if (groupIds.length === 0) return map;
  const rows = await db
    .selectFrom('contact_group_users')
    .innerJoin('users', 'users.id', 'contact_group_users.user_id')
    .select([...userRef, 'contact_group_users.group_id'])
    .where('contact_group_users.group_id', 'in', groupIds)
    .orderBy('users.last_name')
    .orderBy('users.first_name')
    .execute();
  for (const { group_id, ...user } of rows) {
    const list = map.get(group_id);
    if (list) list.push(user);
    else map.set(group_id, [user]);
  }
  return map;
}

export function insertContactRow(db: Db, row: Insertable<ContactTable>) {
  return db.insertInto('contacts').values(row).execute();
}

export function updateContactRow(db: Db, tenant: Tenant, id: string, values: Partial<Insertable<ContactTable>>) {
  return db.updateTable('contacts').set(values).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}

export function numbersOf(db: Db, contactId: string) {
  return db.selectFrom('contact_numbers').selectAll().where('contact_id', '=', contactId).orderBy('position').execute();
}

export function deleteNumbersExcept(db: Db, contactId: string, keepIds: string[]) {
  let query = db.deleteFrom('contact_numbers').where('contact_id', '=', contactId);
  if (keepIds.length) query = query.where('id', 'not in', keepIds);
  return query.execute();
}

export function updateNumberRow(db: Db, id: string, values: Partial<Insertable<ContactNumberTable>>) {
  return db.updateTable('contact_numbers').set(values).where('id', '=', id).execute();
}

export function insertNumberRows(db: Db, rows: Insertable<ContactNumberTable>[]) {
  return rows.length ? db.insertInto('contact_numbers').values(rows).execute() : Promise.resolve([]);
}

/** Speed dials among `speedDials` already used in the PBX by another contact. */
export async function takenSpeedDials(db: Db, tenant: Tenant, speedDials: string[], exceptContactId: string | null): Promise<Set<string>> {
  if (speedDials.length === 0) return new Set();
  let query = db.selectFrom('contact_numbers').select('speed_dial').where('pbx_id', '=', tenant.pbxId).where('speed_dial', 'in', speedDials);
  if (exceptContactId) query = query.where('contact_id', '!=', exceptContactId);
  return new Set((await query.execute()).map((r) => r.speed_dial as string));
}

export async function existingGroupIds(db: Db, tenant: Tenant, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('contact_groups').select('id').where('pbx_id', '=', tenant.pbxId).where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

export async function replaceGroups(db: Db, contactId: string, groupIds: string[]) {
  await db.deleteFrom('contact_group_members').where('contact_id', '=', contactId).execute();
  if (groupIds.length)
    await db
      .insertInto('contact_group_members')
      .values(groupIds.map((group_id) => ({ group_id, contact_id: contactId })))
      .execute();
}

export function findUserInPbx(db: Db, tenant: Tenant, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'allow_manage_global_contacts'])
    .where('id', '=', userId)
    .where('pbx_id', '=', tenant.pbxId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export type MarkTable = 'contact_favorites' | 'contact_blocks';

export function addMark(db: Db, table: MarkTable, contactId: string, userId: string, at: string) {
  return db
    .insertInto(table)
    .values({ contact_id: contactId, user_id: userId, created_at: at })
    .onConflict((oc) => oc.columns(['contact_id', 'user_id']).doNothing())
    .execute();
}

export function removeMark(db: Db, table: MarkTable, contactId: string, userId: string) {
  return db.deleteFrom(table).where('contact_id', '=', contactId).where('user_id', '=', userId).execute();
}
