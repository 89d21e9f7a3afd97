import type { Kysely, Selectable } from 'kysely';
import type { DB, UserTable } from '../../../db/schema.js';
import { Forbidden, NotFound } from '../../../platform/errors.js';
import { assertActsOnSelfOrAdmin, type Principal } from '../../../platform/auth/principal.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { findUser } from '../users/users.queries.js';

export type UserRow = Selectable<UserTable>;

/**
 * The user a `/users/{user}/...` request acts on: another tenant's (or a deleted) user is 404,
 * another user of the same PBX is 403 unless the caller is an administrator or the PBX itself.
 */
export async function targetUser(db: Kysely<DB>, tenant: Tenant, principal: Principal, userId: string): Promise<UserRow> {
  const user = await findUser(db, tenant, userId);
  if (!user) throw new NotFound('User not found.');
  assertActsOnSelfOrAdmin(principal, user.id);
  return user;
}

export type UserPermission = 'allow_dnd' | 'allow_change_twinning_dest' | 'allow_call_forwarding';

const PERMISSION_MESSAGES: Record<UserPermission, string> = {
  allow_dnd: 'Do-not-disturb changes are not allowed for this user.',
  allow_change_twinning_dest: 'Changing twinning destinations is not allowed for this user.',
  allow_call_forwarding: 'Call forwarding is not allowed for this user.',
};

/**
 * The user's own permission flags bind the user; administrators and the PBX's keys manage
 * regardless, since those flags are theirs to set.
 */
export function assertPermission(principal: Principal, user: UserRow, permission: UserPermission): void {
  const actsAsManager = principal.kind !== 'user' || principal.role === 'admin';
  if (!actsAsManager && user[permission] !== 1) throw new Forbidden(PERMISSION_MESSAGES[permission]);
}

export const flag = (value: number | null | undefined): boolean => value === 1;
export const toFlag = (value: boolean): number => (value ? 1 : 0);
