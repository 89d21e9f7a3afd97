import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of roaming.routes.ts, by operation id. */
export const ROAMING_DOCS = {
  roamingLogin: {
    summary: 'Log an extension in on a SIP device (hot-desking; PBX API key)',
    description:
      'The PBX key only (user tokens and integration keys are refused, 403). ' +
      '`sip_device_id` must be a live device of the PBX and `extension` the number of a live extension that belongs to a user (422 otherwise); that user must have extension_roaming and be active (403). ' +
      'The extension leaves any other device it was logged in on, one phone at a time, and replaces whatever was logged in on this one. ' +
      'Answers 200 `{data}` with the device and its roaming fields.',
  },
  roamingLogout: {
    summary: 'Log the roaming extension out of a SIP device (PBX API key)',
    description:
      'The PBX key only (403 for any other caller). ' +
      '`sip_device_id` must be a live device of the PBX with an extension logged in by roaming (422 otherwise); the roaming fields are cleared and the device answered as `{data}`.',
  },
} satisfies OperationDocs;
