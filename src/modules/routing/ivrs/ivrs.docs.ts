import type { OperationDocs } from '../../../http/resource-routes.js';

const INCLUDES =
  '`include`: announcement, musicOnHold (sound-file summaries), steps (always there; accepted), steps.target (each step’s call flow or IVR `{id, name, type}`, null when gone).';

/** The OpenAPI text of ivrs.routes.ts, by operation id. */
export const IVRS_DOCS = {
  listIvrs: {
    summary: 'IVR menus of the PBX',
    description: `Any user of the PBX, its PBX key, an integration key with call-routing. \`search\` matches the name; sorted by name unless \`sort\` says otherwise; \`filter[trashed]\` (without, with, only). ${INCLUDES}`,
  },
  createIvr: {
    summary: 'Create an IVR menu (administrators)',
    description:
      'pbx_id must be the caller’s PBX (else 422). announcement: a live sound file of the PBX of type announcement; musicOnHold: of type music. ' +
      'Defaults: default_action hangup, announcement_language null (Auto), timeout_seconds 5, max_repeats 2. Steps are added under /ivrs/{ivr}/steps.',
  },
  getIvr: {
    summary: 'One IVR menu with its steps',
    description: `Any user of the PBX, its PBX key, or an integration key with the call-routing scope. A deleted IVR, or another tenant's, is 404 (list it with filter[trashed]). ${INCLUDES}`,
  },
  updateIvr: {
    summary: 'Change an IVR menu (administrators)',
    description: 'The fields of the creation, all optional, with the same limits; pbx_id, when sent, must still be the caller’s PBX.',
  },
  deleteIvr: {
    summary: 'Delete an IVR menu (soft; restorable)',
    description:
      'Administrators of the PBX only. Refused with 409 `{message, used_by}` while steps of other IVRs, call-flow nodes, queue overflows or phone numbers send calls to it.',
  },
  restoreIvr: {
    summary: 'Restore a deleted IVR menu with its steps',
    description:
      'Administrators of the PBX only. 422 when its announcement or music on hold, or the target of one of its steps (steps.{option}.target_id), is gone: restore those first.',
  },
} satisfies OperationDocs;
