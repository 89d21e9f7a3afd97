import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of contact-groups.routes.ts, by operation id. */
export const CONTACT_GROUPS_DOCS = {
  listContactGroups: {
    summary: 'List contact groups',
    description:
      'User tokens and integration keys with the contacts scope; every contact group of the PBX, each with the users who see it. ' +
      '`search` matches the name; sorted by name unless `sort` says otherwise.',
  },
  createContactGroup: {
    summary: 'Create a contact group (needs allow_manage_global_contacts)',
    description:
      'Users with allow_manage_global_contacts and integration keys with the contacts scope (403 for other users). ' +
      'The name must be unused in the PBX (422); the call flows, extension and caller identity named must exist in the PBX, and `users` must be live users of it (422 per field). ' +
      'Answers 201 `{data}`.',
  },
  getContactGroup: {
    summary: 'One contact group',
    description:
      'User tokens and integration keys with the contacts scope. Another PBX’s group, or an unknown one, is 404. ' +
      'Answers `{data}` with the users who see the group.',
  },
  updateContactGroup: {
    summary: 'Replace a contact group',
    description:
      'Users with allow_manage_global_contacts and integration keys with the contacts scope (403). ' +
      'PUT replaces the group: fields left out are cleared (flags false), and `users` becomes exactly the list sent (empty when left out). ' +
      'Same checks as creating; another PBX’s group is 404. Answers `{data}`.',
  },
  deleteContactGroup: {
    summary: 'Delete a contact group (its contacts stay)',
    description:
      'Users with allow_manage_global_contacts and integration keys with the contacts scope (403). ' +
      'The group is removed for good; its contacts stay and only leave the group. Another PBX’s group is 404.',
  },
} satisfies OperationDocs;
