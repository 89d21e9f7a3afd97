import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of caller-identities.routes.ts, by operation id. */
export const CALLER_IDENTITIES_DOCS = {
  listCallerIdentities: {
    summary: 'Caller identities (a user sees those it may present)',
    description:
      'Any user of the PBX and its PBX key. ' +
      'A user who is not an administrator sees only the identities it may present (its own and the PBX-wide ones, `user_id` null), and its `filter[trashed]` is ignored; administrators and the PBX key see all. ' +
      '`search` matches name and external caller number; `filter[user_id]` narrows the page; sorted by name unless `sort` says otherwise.',
  },
  createCallerIdentity: {
    summary: 'Create a caller identity',
    description:
      'Administrators of the PBX and its PBX key. ' +
      '`phone_number_id` must be a live phone number of the PBX (422); `external_caller_number` defaults to that root number, and when sent is read with the PBX country as default region and stored in E.164 (422 if unreadable). ' +
      '`user_id` null (default) lets every user present the identity, otherwise it must be a live user of the PBX (422). ' +
      'The PBX engine id (`voip_id`) is assigned by the server.',
  },
  getCallerIdentity: {
    summary: 'One caller identity',
    description:
      'Any user of the PBX and its PBX key; a user who is not an administrator gets 403 for another user’s personal identity. ' +
      'A deleted identity, or another PBX’s, is 404.',
  },
  updateCallerIdentity: {
    summary: 'Change a caller identity',
    description:
      'Administrators of the PBX and its PBX key. ' +
      'Only the fields sent change, with the rules of the creation; a new `phone_number_id` without `external_caller_number` also resets the presented number to the new root number. ' +
      '`is_default` is stored as sent; other identities keep theirs. A deleted identity is 404.',
  },
  deleteCallerIdentity: {
    summary: 'Delete a caller identity (soft; restorable)',
    description:
      'Administrators of the PBX and its PBX key. ' +
      'Soft delete: the identity leaves lists and reads (404) and comes back with POST /caller-identities/{callerIdentity}/restore.',
  },
  restoreCallerIdentity: {
    summary: 'Restore a deleted caller identity',
    description: 'Administrators of the PBX and its PBX key. Clears deleted_at and answers the identity; one that is not deleted, or another PBX’s, is 404.',
  },
  listUserCallerIdentities: {
    summary: 'Caller identities one user may present',
    description:
      'Any user for itself; another user of the PBX only for an administrator or the PBX key (403). ' +
      'Answers `{data: [...]}` (not paginated): the live identities the user may present, its own and the PBX-wide ones. ' +
      'A deleted user, or another PBX’s, is 404.',
  },
} satisfies OperationDocs;
