import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of me.routes.ts, by operation id. */
export const ME_DOCS = {
  getProfile: {
    summary: 'The authenticated user profile (user tokens only)',
    description:
      'User tokens only; an API key is refused (403). Answers `{message, data}`: the user with its permission flags, its extensions, SIP devices, groups, twinnings, caller identities, WebRTC summary (without password and voicemail PIN), PBX and employee id. ' +
      '`access_token` is always null. A user deleted since the token was issued is 401.',
  },
  getUser: {
    summary: 'The authenticated user record (flat)',
    description:
      'User tokens only; an API key is refused (403). The user record without envelope (no `data`): id, pbx_id, names, e-mail, status and timestamps; password and tokens are never serialized. A user deleted since the token was issued is 401.',
  },
} satisfies OperationDocs;
