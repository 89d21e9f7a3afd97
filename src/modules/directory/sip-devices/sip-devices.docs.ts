import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of sip-devices.routes.ts, by operation id. */
export const SIP_DEVICES_DOCS = {
  listSipDevices: {
    summary: 'SIP devices of the PBX',
    description:
      'Administrators of the PBX and its PBX key. ' +
      '`search` matches name, username and MAC address; `filter[user_id]`, `filter[model]` and `filter[trashed]` narrow the page; sorted by name unless `sort` says otherwise. ' +
      'The SIP secret is never listed.',
  },
  getSipDevice: {
    summary: 'One SIP device (its owner, an administrator or the PBX)',
    description:
      'A user reads only a device assigned to it (403 otherwise); administrators and the PBX key read every device of the PBX. ' +
      'A deleted device, or another PBX’s, is 404. The SIP secret is never shown here.',
  },
  updateSipDevice: {
    summary: 'Change a SIP device (only supplied fields)',
    description:
      'Administrators of the PBX and its PBX key. The fields of the creation, all optional; a new `secret` replaces the stored one but is not echoed. ' +
      'A username or MAC address taken on the platform is 422, as are a `user_id` or `extension_id` that is not live in the PBX. A deleted device is 404.',
  },
  deleteSipDevice: {
    summary: 'Delete a SIP device (soft; restorable)',
    description:
      'Administrators of the PBX and its PBX key. ' +
      'Soft delete: the device leaves lists and reads (404) and comes back with POST /sip-devices/{sipDevice}/restore; its username and MAC address stay reserved meanwhile.',
  },
  listUserSipDevices: {
    summary: 'SIP devices of one user',
    description:
      'Any user for itself; another user of the PBX only for an administrator or the PBX key (403). ' +
      'Answers `{data: [...]}` (not paginated) with the user’s live devices. A deleted user, or another PBX’s, is 404.',
  },
  restoreSipDevice: {
    summary: 'Restore a deleted SIP device',
    description: 'Administrators of the PBX and its PBX key. Clears deleted_at and answers the device; one that is not deleted, or another PBX’s, is 404.',
  },
  createSipDevice: {
    summary: 'Create a SIP device (its secret is in this answer only)',
    description:
      'Administrators of the PBX and its PBX key. ' +
      'Only `name` is required: username and secret are generated when omitted, transport defaults to udp, codecs to opus, g722, pcma, enabled to true. ' +
      'Username and MAC address (stored as `80:5E:C0:12:34:56` in any accepted spelling) must be unused on the platform (422); `user_id` and `extension_id` must be live in the PBX (422). ' +
      'Answers 201 `{data}` with the `secret`, shown this once.',
  },
} satisfies OperationDocs;
