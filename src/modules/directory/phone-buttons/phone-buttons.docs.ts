import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of phone-buttons.routes.ts, by operation id. */
export const PHONE_BUTTONS_DOCS = {
  listPhoneButtons: {
    summary: 'Programmed keys of a user\u2019s phones',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403); a deleted user, or another PBX’s, is 404. ' +
      'Answers `{data: [...]}` (not paginated) with the programmed keys of all the user’s devices, or of one with `sip_device_id`.',
  },
  getPhoneButton: {
    summary: 'One programmed key',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403); a deleted user, or another PBX’s, is 404. ' +
      'Answers `{data: <phone button>}`, the key as the list shows it; a key of another user than the one in the path, or an unknown one, is 404.',
  },
  createPhoneButton: {
    summary: 'Program a key',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403). ' +
      '`sip_device_id` must be a live device of the user, and `position` within the keys of its phone model (a device without a known model has none): 422 otherwise, as for a position already programmed on that device. blf needs an extension number of the PBX as `value`, speed_dial and park a dialable number; the other types take no value (422).',
  },
  updatePhoneButton: {
    summary: 'Reprogram or move a key',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403). ' +
      'Only the fields sent change, checked as on creation; changing `type` without `value` clears the value. The device stays the same. ' +
      'A key of another user than the one in the path is 404.',
  },
  deletePhoneButton: {
    summary: 'Clear a key',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403). ' +
      'The key is cleared for good; a key of another user than the one in the path is 404.',
  },
  previewPhoneButtons: {
    summary: 'Every key of the phone model with what it is programmed to',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403). ' +
      'For the device given by `sip_device_id` (a device of the user, else 422), or the user’s first device: every key of its phone model in order, with type none for unprogrammed keys. ' +
      'A user without devices gets `{model: null, total_buttons: 0, buttons: []}`. Answers `{data}`.',
  },
} satisfies OperationDocs;
