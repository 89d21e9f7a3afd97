import type { Static } from '@sinclair/typebox';
import type { UserGroupRow } from './user-groups.queries.js';
import type { UserGroup } from './user-groups.schemas.js';

/** A user group as the contract shows it, with its member ids when they were loaded. */
export function presentUserGroup(row: UserGroupRow, members?: string[]): Static<typeof UserGroup> {
  return { id: row.id, name: row.name, user_id: row.user_id, position: row.position, ...(members ? { users: members } : {}) };
}
