import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of extensions.routes.ts, by operation id. */
export const EXTENSIONS_DOCS = {
  listExtensions: {
    summary: 'The PBX extension directory',
    description:
      'Any user of the PBX and its PBX key. ' +
      '`search` matches number and name; `filter[user_id]` and `filter[trashed]` narrow the page; sorted by number unless `sort` says otherwise. ' +
      '`is_favorite` is present for user tokens only. `include`: user, user.groups, sipDevice.',
  },
  createExtension: {
    summary: 'Create an extension',
    description:
      'Administrators of the PBX and its PBX key. ' +
      '`number` (2-16 digits) must be unused in the PBX, deleted extensions included (422 otherwise); `user_id`, when given, must be a live user of the PBX (422). ' +
      'The PBX engine id (`voip_id`) is assigned by the server; voicemail is enabled unless `voicemail_enabled` is false.',
  },
  getExtension: {
    summary: 'One extension',
    description: 'Any user of the PBX and its PBX key. A deleted extension, or another PBX’s, is 404. `include`: user, user.groups, sipDevice.',
  },
  updateExtension: {
    summary: 'Change an extension (only supplied fields)',
    description:
      'Administrators of the PBX and its PBX key. ' +
      'The fields of the creation, all optional: a number taken by another extension is 422, a `user_id` that is not a live user of the PBX is 422, null unassigns the extension. ' +
      'A deleted extension is 404.',
  },
  deleteExtension: {
    summary: 'Delete an extension (soft; restorable)',
    description:
      'Administrators of the PBX and its PBX key. Refused with 409 and `used_by` while a phone number, a call flow or a queue rings it. Restorable with POST /extensions/{extension}/restore.',
  },
  restoreExtension: {
    summary: 'Restore a deleted extension',
    description: 'Administrators of the PBX and its PBX key. Clears deleted_at and answers the extension; one that is not deleted, or another PBX’s, is 404.',
  },
  listUserExtensions: {
    summary: 'Extensions of one user',
    description:
      'Any user for itself; another user of the PBX only for an administrator or the PBX key (403). ' +
      'Answers `{data: [...]}` (not paginated), the user’s live extensions by number. A deleted user, or another PBX’s, is 404.',
  },
  favoriteExtension: {
    summary: 'Mark an extension as a favourite of the caller',
    description:
      'User tokens only; the favourite belongs to the calling user and shows as `is_favorite` in its extension reads. Marking one already marked is no error (204). A deleted extension, or another PBX\u2019s, is 404.',
  },
  unfavoriteExtension: {
    summary: 'Remove an extension from the caller\u2019s favourites',
    description: 'User tokens only. Removing an extension that was not a favourite is no error (204). A deleted extension, or another PBX\u2019s, is 404.',
  },
} satisfies OperationDocs;
