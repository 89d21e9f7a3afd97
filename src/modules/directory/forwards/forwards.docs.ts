import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of forwards.routes.ts, by operation id. */
export const FORWARDS_DOCS = {
  listForwards: {
    summary: 'Call forwards of a user',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403); a deleted user, or another PBX’s, is 404. ' +
      'Answers `{data: [...]}` (not paginated) with the user’s forwards, narrowed by `filter[type]` and `filter[enabled]`. ' +
      'Reading needs no allow_call_forwarding permission.',
  },
  getForward: {
    summary: 'One call forward of a user',
    description:
      'Who may: as for the list (no allow_call_forwarding permission needed to read). Answers `{data: <forward>}`, the forward as the list shows it; ' +
      'a forward of another user than the one in the path, or an unknown one, is 404.',
  },
  createForward: {
    summary: 'Create a call forward (needs allow_call_forwarding)',
    description:
      'A user for itself, only with its allow_call_forwarding permission (403 otherwise); an administrator or the PBX key for any user of the PBX. ' +
      'One forward per type and user (a second is 422). ' +
      '`destination` is required for number (read with the PBX country as default region, stored in E.164) and extension (an extension number of the PBX), and must be empty for voicemail (422). ' +
      'Defaults: enabled, delay 20 seconds for no_answer and 0 otherwise.',
  },
  updateForward: {
    summary: 'Change a call forward (only supplied fields)',
    description:
      'Who may: as for creating (allow_call_forwarding for a user acting itself). ' +
      'Only the fields sent change; a new destination_type or destination is checked as on creation, and a type another forward of the user already has is 422. ' +
      'A forward of another user than the one in the path is 404.',
  },
  deleteForward: {
    summary: 'Delete a call forward',
    description:
      'Who may: as for creating (allow_call_forwarding for a user acting itself). ' +
      'Removed for good (no restore); a forward of another user than the one in the path is 404.',
  },
} satisfies OperationDocs;
