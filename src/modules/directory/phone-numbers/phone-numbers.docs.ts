import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of phone-numbers.routes.ts, by operation id. */
export const PHONE_NUMBERS_DOCS = {
  listPhoneNumbers: {
    summary: 'Phone numbers of the PBX',
    description:
      'Any user of the PBX, its PBX key, or an integration key with the phone-numbers scope. ' +
      '`search` matches number and label; `filter[destination_type]` and `filter[trashed]` narrow the page; sorted by number unless `sort` says otherwise.',
  },
  createPhoneNumber: {
    summary: 'Add a phone number (normalised to E.164)',
    description:
      'Administrators of the PBX, its PBX key, or an integration key with the phone-numbers scope. ' +
      '`number` is read with the PBX country as default region and stored in E.164; a number that cannot be read, or is already taken on the platform (deleted numbers included), is 422. ' +
      '`destination_type` defaults to none; otherwise `destination_id` is required and must be a live user, extension, call flow, IVR or queue of the PBX (422).',
  },
  getPhoneNumber: {
    summary: 'One phone number',
    description: 'Any user of the PBX, its PBX key, or an integration key with the phone-numbers scope. A deleted number, or another PBX’s, is 404.',
  },
  updatePhoneNumber: {
    summary: 'Change a phone number or where it routes',
    description:
      'Administrators of the PBX, its PBX key, or an integration key with the phone-numbers scope. ' +
      'Only the fields sent change, with the rules of the creation; changing `destination_type` alone keeps the current `destination_id` (dropped when the type becomes none), which must then fit the new type (422). ' +
      'A deleted number is 404.',
  },
  deletePhoneNumber: {
    summary: 'Delete a phone number (soft; restorable)',
    description:
      'Administrators of the PBX, its PBX key, or an integration key with the phone-numbers scope. ' +
      'Soft delete: the number leaves lists and reads (404); it stays reserved on the platform and comes back with POST /phone-numbers/{phoneNumber}/restore.',
  },
  restorePhoneNumber: {
    summary: 'Restore a deleted phone number',
    description:
      'Administrators of the PBX, its PBX key, or an integration key with the phone-numbers scope. ' +
      'Clears deleted_at and answers the number with its former destination (not checked again); one that is not deleted, or another PBX’s, is 404.',
  },
} satisfies OperationDocs;
