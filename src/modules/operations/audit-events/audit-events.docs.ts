import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of audit-events.routes.ts, by operation id. */
export const AUDIT_EVENTS_DOCS = {
  listAuditEvents: {
    summary: "The PBX's audit trail, newest first (administrators)",
    description:
      'Security-relevant changes, each with who made it (principal kind and id, and the user behind a user token), what (action and subject), when, and the request id. ' +
      'Entries never hold secrets. Actions so far: `webhook_signing_secret.rotated`. 422 for an unknown sort field, a malformed date, or `filter[to]` before `filter[from]`.',
  },
} satisfies OperationDocs;
