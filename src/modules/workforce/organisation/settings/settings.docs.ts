import type { OperationDocs } from '../../../../http/resource-routes.js';

/** The OpenAPI text of settings.routes.ts, by operation id. */
export const SETTINGS_DOCS = {
  getWorkforceSettings: {
    summary: 'The workforce settings of the PBX',
    description: 'Readable by every user of the PBX and its PBX API key, since the apps write names and half days by them. `timezone` is the PBX\u2019s.',
  },
  updateWorkforceSettings: {
    summary: 'Change the name order or the half-day split',
    description:
      'Administrators and the PBX API key; only the fields sent change. `timezone` is read-only here (it is the PBX\u2019s) and, like any other field, refused with 422 when sent.',
  },
} satisfies OperationDocs;
