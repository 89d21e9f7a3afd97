import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of dnd.routes.ts, by operation id. */
export const DND_DOCS = {
  listDnds: {
    summary: 'DND rules of a user',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403); a deleted user, or another PBX’s, is 404. ' +
      'Answers `{data: [...]}` (not paginated) with every rule of the user, narrowed by `filter[type]`. Reading needs no allow_dnd permission.',
  },
  getDnd: {
    summary: 'One DND rule of a user',
    description:
      'Who may: as for the list (no allow_dnd permission needed to read). Answers `{data: <DND rule>}`, the rule as the list shows it; ' +
      'a rule of another user than the one in the path, or an unknown one, is 404.',
  },
  createDnd: {
    summary: 'Create a DND rule (needs allow_dnd)',
    description:
      'A user for itself, only with its allow_dnd permission (403 otherwise); an administrator or the PBX key for any user of the PBX. ' +
      'An external rule needs `caller_identity_id`, an identity the user may present; an internal rule must have none; `extension_id` must be one of the user’s extensions, null for all (422 otherwise). ' +
      'One rule per target: a second rule for the same type, identity and extension is 422.',
  },
  replaceDnd: {
    summary: 'Replace a DND rule (omitted fields reset to defaults)',
    description:
      'Who may: as for creating (allow_dnd for a user acting itself). ' +
      'The rule becomes exactly the body: omitted fields reset to internal, no caller identity, all extensions; the same checks as creating apply, and a target another rule of the user already has is 422. ' +
      'A rule of another user than the one in the path is 404.',
  },
  deleteDnd: {
    summary: 'Delete a DND rule',
    description:
      'Who may: as for creating (allow_dnd for a user acting itself). Removed for good (no restore); a rule of another user than the one in the path is 404.',
  },
  bulkDnds: {
    summary: 'Set several DND rules at once (created when missing)',
    description:
      'Who may: as for creating (allow_dnd for a user acting itself). ' +
      'Sets the status of each target (1 to 200 items; rules over all of the user’s extensions): an existing rule for the target is updated, a missing one is created. ' +
      'All or nothing: an invalid item is 422 with its field as `dnds.{index}.caller_identity_id`, and nothing changes. ' +
      'Answers `{data: [{id, status}]}` in the order sent.',
  },
} satisfies OperationDocs;
