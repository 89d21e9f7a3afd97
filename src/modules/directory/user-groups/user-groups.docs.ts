import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of user-groups.routes.ts, by operation id. */
export const USER_GROUPS_DOCS = {
  listUserGroups: {
    summary: 'User groups: a user\u2019s own; every group of the PBX for an administrator (filter[user_id] narrows)',
    description:
      'Any user of the PBX and its PBX key. ' +
      'A user who is not an administrator gets only the groups it owns (`filter[user_id]` is ignored); administrators and the PBX key get every group of the PBX, narrowed by `filter[user_id]`. ' +
      '`search` matches the name; sorted by position unless `sort` says otherwise; `include=users` adds the member ids.',
  },
  createUserGroup: {
    summary: 'Create a group for a user',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403). ' +
      'The name must be unused among the owner’s groups (422); `position` inserts the group there (the others shift down), it is appended when omitted or beyond the end. ' +
      '`users` must be live users of the PBX (422 per item). Answers the group with its members.',
  },
  getUserGroup: {
    summary: 'One group',
    description:
      'A user for itself; another user’s group only for an administrator or the PBX key (403). ' +
      'A group not owned by the user in the path, or of another PBX, is 404. `include=users` adds the member ids.',
  },
  updateUserGroup: {
    summary: 'Rename or reorder a group (position)',
    description:
      'A user for itself; another user’s group only for an administrator or the PBX key (403). ' +
      'A name already used by another group of the owner is 422; a new `position` (capped at the number of groups) moves the group and shifts the ones in between, keeping positions 1..n. ' +
      'Answers the group with its members.',
  },
  setUserGroupMembers: {
    summary: 'Replace the members of a group',
    description:
      'A user for itself; another user’s group only for an administrator or the PBX key (403). ' +
      '`users` replaces the whole member list (an empty array empties it); each must be a live user of the PBX (422 per item), at most 500. ' +
      'Answers the group with its new members.',
  },
  deleteUserGroup: {
    summary: 'Delete a group',
    description:
      'A user for itself; another user’s group only for an administrator or the PBX key (403). ' +
      'Removed for good (no restore) with its memberships; the owner’s later groups move up one position.',
  },
} satisfies OperationDocs;
