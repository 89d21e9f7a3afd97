import type { Static } from '@sinclair/typebox';
import type { Updateable } from 'kysely';
import type { UserTable } from '../../../db/schema.js';
import { NotFound, ValidationFailed } from '../../../platform/errors.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import { restore, softDelete } from '../../../platform/soft-delete.js';
import type { Principal } from '../../../platform/auth/principal.js';
import { revokeAllUserTokens } from '../../../platform/auth/tokens.js';
import type { AppContext } from '../../../platform/context.js';
import { hashPassword } from '../../../platform/crypto.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { targetUser, toFlag, type UserRow } from '../shared/access.js';
import { lockReferences, refuseWhileUsed } from '../../../platform/references.js';
import { guardUnique } from '../../../platform/unique.js';
import { callerIdentitiesOfUsers } from '../caller-identities/caller-identities.service.js';
import { presentCallerIdentity } from '../caller-identities/caller-identities.presenter.js';
import { extensionsOfUsers } from '../extensions/extensions.queries.js';
import { presentExtension } from '../extensions/extensions.presenter.js';
import { presentSipDevice } from '../sip-devices/sip-devices.presenter.js';
import { sipDevicesOfUsers } from '../sip-devices/sip-devices.queries.js';
import { presentTwinning } from '../twinnings/twinnings.presenter.js';
import { twinningsOfUsers } from '../twinnings/twinnings.queries.js';
import { groupsOfUsers } from '../user-groups/user-groups.service.js';
import { presentUserGroup } from '../user-groups/user-groups.presenter.js';
import { findUser, insertUser, listUsers, updateUser, type UserFilters } from './users.queries.js';
import { presentUser } from './users.presenter.js';
import { USER_FLAGS, type CreateUserBody, type UpdateUserBody, type User } from './users.schemas.js';

type UserView = Static<typeof User>;
const NOT_FOUND = 'User not found.';
const EMAIL_TAKEN = [{ match: 'email', field: 'email', message: 'The email has already been taken.' }];

type Body = Static<typeof UpdateUserBody>;

/**
 * The link from a user to its employee is the workforce's to set (one employee per user, of the
 * same PBX, checked there): here it is shown, and a request that would change it is refused.
 */
function refuseEmployeeLinkChange(requested: string | null | undefined, current: string | null): void {
  if (requested === undefined || requested === current) return;
  throw ValidationFailed.field(
    'employee_id',
    'The employee link cannot be changed here: set user_id on the employee with PATCH /{pbx_id}/employees/{employee} (null unlinks).',
  );
}

/** The stored columns for the supplied fields of a create or update body. */
async function columnsOf(body: Body): Promise<Updateable<UserTable>> {
  const { password, email, employee_id: _link, ...rest } = body;
  const columns: Updateable<UserTable> = {};
  for (const [key, value] of Object.entries(rest)) {
    if (value === undefined) continue;
    (columns as Record<string, unknown>)[key] = (USER_FLAGS as readonly string[]).includes(key) ? toFlag(value as boolean) : value;
  }
  if (email !== undefined) columns.email = email.toLowerCase();
  if (password !== undefined) columns.password_hash = await hashPassword(password);
  return columns;
}

/** Users of a PBX, managed by its administrators; disabling or deleting one ends its sessions. */
export class UsersService {
  constructor(private readonly ctx: AppContext) {}

  list(tenant: Tenant, filters: UserFilters, sort: SortTerm[], page: PageRequest) {
    return listUsers(this.ctx.db, tenant, filters, sort, page);
  }

  /** Self or an administrator; another tenant's user is 404. */
  get(tenant: Tenant, principal: Principal, id: string): Promise<UserRow> {
    return targetUser(this.ctx.db, tenant, principal, id);
  }

  async create(tenant: Tenant, body: Static<typeof CreateUserBody>): Promise<UserRow> {
    refuseEmployeeLinkChange(body.employee_id, null);
    const { password, email, first_name, last_name, ...rest } = body;
    const columns = await columnsOf(rest);
    const user = await guardUnique(EMAIL_TAKEN, () =>
      insertUser(this.ctx.db, this.ctx.clock, {
        ...(columns as object),
        pbx_id: tenant.pbxId,
        email,
        password: password ?? null,
        first_name,
        last_name: last_name ?? '',
      }),
    );
    return (await findUser(this.ctx.db, tenant, user.id))!;
  }

  async update(tenant: Tenant, id: string, body: Body): Promise<UserRow> {
    const before = await findUser(this.ctx.db, tenant, id);
    if (!before) throw new NotFound(NOT_FOUND);
    refuseEmployeeLinkChange(body.employee_id, before.employee_id);
    const columns = await columnsOf(body);
    await guardUnique(EMAIL_TAKEN, () => updateUser(this.ctx.db, tenant, id, { ...columns, updated_at: this.ctx.clock.now().toISOString() }));
    if (body.status === 'disabled' && before.status !== 'disabled') await revokeAllUserTokens(this.ctx.db, this.ctx.clock, id);
    return (await findUser(this.ctx.db, tenant, id))!;
  }

  async delete(tenant: Tenant, principal: Principal, id: string): Promise<void> {
    if (principal.kind === 'user' && principal.userId === id) throw ValidationFailed.field('user', 'You cannot delete your own account.');
    // A deleted user is linked to no employee: the employee is free for another user.
    await this.ctx.db.transaction().execute(async (trx) => {
      // Routing that rings, queues or sends voicemail to the user keeps it (409 with the list).
      await lockReferences(trx, this.ctx.dialect, tenant);
      await refuseWhileUsed(trx, tenant, 'user', id, 'user');
      await softDelete(trx, this.ctx.clock, 'users', tenant, id, NOT_FOUND);
      await updateUser(trx, tenant, id, { employee_id: null });
    });
    await revokeAllUserTokens(this.ctx.db, this.ctx.clock, id);
  }

  /** The user comes back without an employee; the workforce links one again. */
  async restore(tenant: Tenant, id: string): Promise<UserRow> {
    await restore(this.ctx.db, this.ctx.clock, 'users', tenant, id, NOT_FOUND);
    return (await findUser(this.ctx.db, tenant, id))!;
  }

  /** Each user with the relations asked for (`include`), loaded in one query per relation. */
  async present(tenant: Tenant, rows: UserRow[], include: Set<string>): Promise<UserView[]> {
    const ids = rows.map((row) => row.id);
    const db = this.ctx.db;
    const byUser = <T extends { user_id: string | null }>(items: T[]) => {
      const map = new Map<string, T[]>();
      for (const item of items) {
        if (!item.user_id) continue;
        const list = map.get(item.user_id);
        if (list) list.push(item);
        else map.set(item.user_id, [item]);
      }
      return map;
    };
    const extensions = include.has('extensions') ? byUser(await extensionsOfUsers(db, tenant, ids)) : null;
    const devices = include.has('sipDevices') ? byUser(await sipDevicesOfUsers(db, tenant, ids)) : null;
    const twinnings = include.has('twinnings') ? byUser(await twinningsOfUsers(db, tenant, ids)) : null;
    const groups = include.has('groups') ? await groupsOfUsers(db, tenant, ids) : null;
    const identities = include.has('callerIdentities') ? await callerIdentitiesOfUsers(db, tenant, ids) : null;
    // The presented user gets its relations set on it: spreading its 35 fields into a new object per row cost more than presenting it.
    return rows.map((row) => {
      const user = presentUser(row);
      if (extensions) user.extensions = (extensions.get(row.id) ?? []).map(presentExtension);
      if (devices) user.sipDevices = (devices.get(row.id) ?? []).map(presentSipDevice);
      if (twinnings) user.twinnings = (twinnings.get(row.id) ?? []).map(presentTwinning);
      if (groups) user.groups = (groups.get(row.id) ?? []).map((g) => presentUserGroup(g, g.members));
      if (identities) user.callerIdentities = (identities.get(row.id) ?? []).map(presentCallerIdentity);
      return user;
    });
  }
}
