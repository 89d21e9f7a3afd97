import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of in-call.routes.ts, by operation id. */
export const IN_CALL_DOCS = {
  reportInCall: {
    summary: 'Report whether the token\u2019s own user is on a call',
    description:
      'User tokens only (API keys are refused, 403): the flag always belongs to the token’s own user. ' +
      'Stores `in_call` with the report time and trusts it for `ttl_seconds` (1 to 86400, default 3600); each report replaces the previous one and restarts the window. ' +
      'Answers 200 `{data}` with the state as it now reads.',
  },
  getInCall: {
    summary: 'The token\u2019s own in-call flag',
    description:
      'User tokens only (403 for API keys). Answers `{data}` with the token’s own user’s flag. ' +
      'A report older than its `ttl_seconds`, or none at all, reads as `in_call: false` with null timestamps (not an error).',
  },
} satisfies OperationDocs;
