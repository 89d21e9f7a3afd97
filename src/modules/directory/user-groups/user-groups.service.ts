import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Static } from '@sinclair/typebox';
import type { DB } from '../../../db/schema.js';
import { NotFound, ValidationFailed } from '../../../platform/errors.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { Principal } from '../../../platform/auth/principal.js';
import type { AppContext } from '../../../platform/context.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { targetUser } from '../shared/access.js';
import { guardUnique } from '../../../platform/unique.js';
import { findUsersByIds } from '../users/users.queries.js';
import type { CreateUserGroupBody, UpdateUserGroupBody, UserGroup } from './user-groups.schemas.js';
import {
  countGroups,
  deleteUserGroup,
  findUserGroup,
  groupsOwnedBy,
  insertUserGroup,
  listUserGroups,
  membersOf,
  replaceMembers,
  shiftPositions,
  updateUserGroup,
  type UserGroupFilters,
  type UserGroupRow,
} from './user-groups.queries.js';
import { presentUserGroup } from './user-groups.presenter.js';

export type { UserGroupRow } from './user-groups.queries.js';

const NOT_FOUND = 'User group not found.';
const NAME_TAKEN = [{ match: 'name', field: 'name', message: 'You already have a group with this name.' }];

/** For each user, the groups it owns in order, with their member ids. */
export async function groupsOfUsers(db: Kysely<DB>, tenant: Tenant, userIds: string[]): Promise<Map<string, Array<UserGroupRow & { members: string[] }>>> {
  const rows = await groupsOwnedBy(db, tenant, userIds);
  const members = await membersOf(
    db,
    rows.map((row) => row.id),
  );
  const map = new Map<string, Array<UserGroupRow & { members: string[] }>>(userIds.map((id) => [id, []]));
  for (const row of rows) map.get(row.user_id)?.push({ ...row, members: members.get(row.id) ?? [] });
  return map;
}

/** A user's own ordered groups of colleagues (positions kept 1..n). */
export class UserGroupsService {
  constructor(private readonly ctx: AppContext) {}

  /** A user who is not an administrator lists its own groups only, whatever `userId` asks. */
  list(tenant: Tenant, principal: Principal, filters: UserGroupFilters, sort: SortTerm[], page: PageRequest) {
    const ownOnly = principal.kind === 'user' && principal.role !== 'admin';
    return listUserGroups(this.ctx.db, tenant, ownOnly ? { ...filters, userId: principal.userId } : filters, sort, page);
  }

  async present(rows: UserGroupRow[], withMembers: boolean): Promise<Array<Static<typeof UserGroup>>> {
    const members = withMembers
      ? await membersOf(
          this.ctx.db,
          rows.map((row) => row.id),
        )
      : null;
    return rows.map((row) => presentUserGroup(row, members?.get(row.id)));
  }

  async get(tenant: Tenant, principal: Principal, userId: string, id: string): Promise<UserGroupRow> {
    const owner = await targetUser(this.ctx.db, tenant, principal, userId);
    const row = await findUserGroup(this.ctx.db, tenant, owner.id, id);
    if (!row) throw new NotFound(NOT_FOUND);
    return row;
  }

  /** Members must be live users of the same PBX. */
  private async checkMembers(tenant: Tenant, userIds: string[]): Promise<void> {
    const found = new Set((await findUsersByIds(this.ctx.db, tenant, userIds)).filter((u) => !u.deleted_at).map((u) => u.id));
    const errors: Record<string, string[]> = {};
    userIds.forEach((id, index) => {
      if (!found.has(id)) errors[`users.${index}`] = ['The selected user is invalid.'];
    });
    if (Object.keys(errors).length) throw new ValidationFailed(errors);
  }

  async create(tenant: Tenant, principal: Principal, userId: string, body: Static<typeof CreateUserGroupBody>): Promise<UserGroupRow> {
    const owner = await targetUser(this.ctx.db, tenant, principal, userId);
    if (body.users) await this.checkMembers(tenant, body.users);
    const id = randomUUID();
    const now = this.ctx.clock.now().toISOString();
    await guardUnique(NAME_TAKEN, () =>
      this.ctx.db.transaction().execute(async (trx) => {
        const count = await countGroups(trx, tenant, owner.id);
        const position = Math.min(body.position ?? count + 1, count + 1);
        await shiftPositions(trx, tenant, owner.id, position, count, 1);
        await insertUserGroup(trx, { id, pbx_id: tenant.pbxId, user_id: owner.id, name: body.name, position, created_at: now, updated_at: now });
        if (body.users) await replaceMembers(trx, id, body.users, now);
      }),
    );
    return (await findUserGroup(this.ctx.db, tenant, owner.id, id))!;
  }

  /** Renames and/or moves the group; the groups in between shift by one. */
  async update(tenant: Tenant, principal: Principal, userId: string, id: string, body: Static<typeof UpdateUserGroupBody>): Promise<UserGroupRow> {
    const row = await this.get(tenant, principal, userId, id);
    await guardUnique(NAME_TAKEN, () =>
      this.ctx.db.transaction().execute(async (trx) => {
        let position = row.position;
        if (body.position !== undefined) {
          const count = await countGroups(trx, tenant, row.user_id);
          position = Math.min(body.position, count);
          if (position < row.position) await shiftPositions(trx, tenant, row.user_id, position, row.position - 1, 1);
          if (position > row.position) await shiftPositions(trx, tenant, row.user_id, row.position + 1, position, -1);
        }
        await updateUserGroup(trx, tenant, id, {
          ...(body.name !== undefined ? { name: body.name } : {}),
          position,
          updated_at: this.ctx.clock.now().toISOString(),
        });
      }),
    );
    return (await findUserGroup(this.ctx.db, tenant, row.user_id, id))!;
  }

  async setMembers(tenant: Tenant, principal: Principal, userId: string, id: string, users: string[]): Promise<UserGroupRow> {
    const row = await this.get(tenant, principal, userId, id);
    await this.checkMembers(tenant, users);
    const now = this.ctx.clock.now().toISOString();
    await this.ctx.db.transaction().execute(async (trx) => {
      await replaceMembers(trx, id, users, now);
      await updateUserGroup(trx, tenant, id, { updated_at: now });
    });
    return row;
  }

  async delete(tenant: Tenant, principal: Principal, userId: string, id: string): Promise<void> {
    const row = await this.get(tenant, principal, userId, id);
    await this.ctx.db.transaction().execute(async (trx) => {
      await deleteUserGroup(trx, tenant, id);
      await shiftPositions(trx, tenant, row.user_id, row.position + 1, null, -1);
    });
  }
}
