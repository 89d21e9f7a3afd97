import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of push-devices.routes.ts, by operation id. */
export const PUSH_DEVICES_DOCS = {
  listDevices: {
    summary: 'The caller\u2019s push devices (filters type, active)',
    description:
      'User tokens only (403 for API keys); only the calling user\u2019s own devices. Answers `{message, devices, total}`, not the usual paginated envelope: `page` and the page size pick the slice, `total` counts all matches. ' +
      '`type` and `active` filter, `search` matches the name; newest first unless `sort` says otherwise (created_at, last_used_at, name).',
  },
  registerDevice: {
    summary: 'Register (or refresh) a push device of the caller',
    description:
      'User tokens only. A push token is one device on the platform: registering a token already known updates that device (type, name, twinning), makes it the caller\u2019s and active again, instead of adding one. ' +
      '`twinning_id` must be a twinning of the caller (422). Answers 201 `{message, device}`.',
  },
  getDevice: {
    summary: 'One push device of the caller',
    description:
      'User tokens only; only the caller\u2019s own devices (another user\u2019s, or an unknown one, is 404). Answers `{message, device}`, the envelope of this resource\u2019s writes, with the device as the list shows it.',
  },
  deactivateDevice: {
    summary: 'Stop pushing to a device',
    description:
      'User tokens only; only the caller\u2019s own devices (another user\u2019s is 404). Sets `is_active` false and answers `{message, device}`; registering the token again activates it.',
  },
  deleteDevice: {
    summary: 'Remove a push device',
    description: 'User tokens only; only the caller\u2019s own devices (another user\u2019s is 404). The device is removed for good (no restore).',
  },
} satisfies OperationDocs;
