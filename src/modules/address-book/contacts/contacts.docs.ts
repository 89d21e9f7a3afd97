import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of contacts.routes.ts, by operation id. */
export const CONTACTS_DOCS = {
  listContacts: {
    summary: 'List the address book',
    description:
      'Search covers names, company, e-mail and any number (as typed or E.164). Private contacts of other users never appear; API keys see global contacts only.',
  },
  createContact: {
    summary: 'Create a contact',
    description:
      'User tokens and integration keys with the contacts scope. ' +
      'A contact is global (private_owner_id null or omitted), which needs a user with allow_manage_global_contacts or an integration key (403 otherwise), or private to the calling user (its own id only, and never with an API key: 422). ' +
      'Numbers are read with the PBX country as default region and stored as typed and as E.164; speed dials are unique per PBX, groups must be contact groups of the PBX, and a handling strategy must name an existing target of its type (all 422 per field). ' +
      'Answers 201 `{data}`.',
  },
  getContact: {
    summary: 'One contact (flat, not wrapped in data)',
    description: "A contact that is not visible to the caller (another tenant's, or another user's private one) is refused with 403 and a not-found message.",
  },
  updateContact: {
    summary: 'Replace a contact (name1 required; is_private derived from private_owner_id)',
    description:
      'Same callers and rules as creating. ' +
      'PUT replaces the contact: fields left out are cleared, numbers and groups become exactly the ones sent (numbers already on the contact keep their id). ' +
      'Only the owner may change a private contact, and a global one only a user with allow_manage_global_contacts or an integration key (403). ' +
      'A contact the caller cannot see, or a deleted one, is 404. Answers `{data}`.',
  },
  deleteContact: {
    summary: 'Move a contact to the trash (restorable)',
    description:
      'User tokens and integration keys with the contacts scope. ' +
      'Moves the contact to the trash (restore with POST /contacts/{contact}/restore); who may is as for changing it (403). ' +
      'A contact the caller cannot see, or already deleted, is 404.',
  },
  restoreContact: {
    summary: 'Restore a soft-deleted contact',
    description:
      'User tokens and integration keys with the contacts scope; who may is as for changing the contact (403). ' +
      'Only a contact in the trash that the caller can see can be restored (404 otherwise). Answers `{data}`.',
  },
  blockContact: {
    summary: 'Block calls from a contact, for the caller or for the whole PBX',
    description:
      'User tokens and integration keys with the contacts scope. scope=global needs allow_manage_global_contacts (or an integration key), else 403; scope=user needs a user token (422 for an API key). ' +
      'The body may be left out: the scope is then user for a user token, global for a key. Blocking again is no error; a contact the caller cannot see is 404. Answers `{data}` with the contact.',
  },
  unblockContact: {
    summary: 'Lift a block (scope user or global)',
    description:
      'User tokens and integration keys with the contacts scope. ' +
      '`scope=user` lifts the caller’s own block and needs a user token (422 for an API key); `scope=global` lifts the PBX-wide block and needs allow_manage_global_contacts or an integration key (403). ' +
      'Without `scope`: user for a user token, global for a key. Lifting a block that is not there is no error. Answers `{data}` with the contact.',
  },
  lookupCaller: {
    summary: 'Contacts matching a calling number (caller name on incoming calls)',
    description: 'The number is read in any common format with the PBX country as default region and matched on its E.164 form.',
  },
  favoriteContact: {
    summary: "Add a contact to the caller's favorites",
    description:
      'User tokens only: favorites belong to the calling user and show as `is_favorite`. Any contact the caller can see may be marked, again without error; a contact it cannot see, or a deleted one, is 404. Answers `{data}` with the contact.',
  },
  unfavoriteContact: {
    summary: "Remove a contact from the caller's favorites",
    description:
      'User tokens only. Removing a contact that was not a favorite is no error; a contact the caller cannot see, or a deleted one, is 404. Answers `{data}` with the contact.',
  },
} satisfies OperationDocs;
