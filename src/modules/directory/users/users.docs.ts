import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of users.routes.ts, by operation id. */
export const USERS_DOCS = {
  listUsers: {
    summary: 'Users of the PBX',
    description:
      'Administrators of the PBX and its PBX key. ' +
      '`search` matches first name, last name and e-mail; `filter[status]` (active, disabled), `filter[role]` (admin, user) and `filter[trashed]` narrow the page; sorted by last then first name unless `sort` says otherwise. ' +
      '`include`: extensions, sipDevices, twinnings, groups, callerIdentities.',
  },
  createUser: {
    summary: 'Create a user',
    description:
      'Administrators of the PBX and its PBX key. Only `email` and `first_name` are required; the e-mail must be unused (422 otherwise) and is stored in lower case, and a user created without `password` can sign in only by magic link or one-time code. ' +
      '`employee_id` is not set here (only null is accepted): link the user with user_id on POST or PATCH /{pbx_id}/employees/{employee}.',
  },
  getUserById: {
    summary: 'One user (yourself, or any user of the PBX for an administrator)',
    description:
      'Any user may read itself; another user of the PBX only an administrator or the PBX key (403 otherwise). A deleted user, or another PBX’s, is 404. ' +
      '`include`: extensions, sipDevices, twinnings, groups, callerIdentities.',
  },
  updateUser: {
    summary: 'Change a user (only supplied fields); disabling revokes its tokens',
    description:
      'Administrators of the PBX and its PBX key. An e-mail already taken is 422; setting `status` to disabled revokes every token the user holds. ' +
      '`employee_id` is read-only here: sent with another value than the current one it is 422; the link is set with user_id on PATCH /{pbx_id}/employees/{employee}.',
  },
  deleteUser: {
    summary: 'Delete a user (soft; restorable); revokes its tokens',
    description:
      'Administrators of the PBX and its PBX key; an administrator cannot delete its own account (422). Every token of the user is revoked. ' +
      'The user is unlinked from its employee (employee_id null), which may then be linked to another user; a restored user comes back unlinked. Refused with 409 and `used_by` while a phone number, a call flow, a queue (member or overflow) routes calls to the user.',
  },
  restoreUser: {
    summary: 'Restore a deleted user',
    description:
      'Administrators of the PBX and its PBX key. ' +
      'Clears deleted_at and answers the user; it comes back without an employee link, and the tokens revoked at deletion stay revoked. ' +
      'A user that is not deleted, or another PBX’s, is 404.',
  },
} satisfies OperationDocs;
