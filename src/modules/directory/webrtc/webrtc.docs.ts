import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of webrtc.routes.ts, by operation id. */
export const WEBRTC_DOCS = {
  getWebrtcByEmail: {
    summary: 'WebRTC configuration by e-mail (internal API key only)',
    description: 'Finds the user among the internal key\u2019s PBX only: a user of another PBX is 404, as an unknown address is.',
  },
  getWebrtc: {
    summary: 'The WebRTC account of a user, without its secrets',
    description:
      'Administrators of the PBX and its PBX key, for any live user of the PBX (404 for another PBX’s or a deleted user). ' +
      'Answers `{data}` with the summary the PUT answers: never the password nor the voicemail PIN. A user without an account is 404.',
  },
  saveWebrtc: {
    summary: 'Create or replace the WebRTC account of a user; secrets are stored encrypted and not echoed',
    description:
      'Administrators of the PBX and its PBX key, for any live user of the PBX (404 for another PBX’s or a deleted user). ' +
      'Creates the account or replaces it: hostname, port and password are required each time; an omitted username, voicemail_pin or call_pickpup_restrictions keeps the stored one (for a new account: `webrtc_` plus the first 8 characters of the user id, no PIN, yes). ' +
      'The username must be unused on the platform (422). Answers 200 `{data}` with the summary, without password and PIN.',
  },
  deleteWebrtc: {
    summary: 'Remove the WebRTC account of a user',
    description: 'Administrators of the PBX and its PBX key, for any live user of the PBX. Removes the account for good; a user without one is 404.',
  },
} satisfies OperationDocs;
