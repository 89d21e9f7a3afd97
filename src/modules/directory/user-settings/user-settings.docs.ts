import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of user-settings.routes.ts, by operation id. */
export const USER_SETTINGS_DOCS = {
  saveUserSetting: {
    summary: 'Save a settings document of a user (replaces the one of the same type)',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403); a deleted user, or another PBX’s, is 404. ' +
      'Creates the document of this `type` or replaces the one the user already has. `settings` is stored as sent but must parse as JSON (422 otherwise). ' +
      'Answers 200 `{data: {type, settings}}`.',
  },
  listUserSettings: {
    summary: 'Every settings document of a user',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403). ' +
      'Answers `{data: [...]}` (not paginated): every settings document of the user, `{type, settings}`.',
  },
  getUserSetting: {
    summary: 'One settings document of a user',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403). ' +
      'Answers `{data: {type, settings}}`; a type the user has no document of is 404.',
  },
  deleteUserSetting: {
    summary: 'Delete a settings document of a user',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403). ' +
      'Removes the document for good; a type the user has no document of is 404.',
  },
} satisfies OperationDocs;
