import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of ivr-steps.routes.ts, by operation id. */
export const IVR_STEPS_DOCS = {
  listIvrSteps: {
    summary: 'The steps of an IVR menu',
    description:
      'Any user of the PBX, its PBX key, or an integration key with the call-routing scope. By option (default, 0-9, *, #) unless `sort` says otherwise. `filter[option]`; `filter[trashed]` (without, with, only). `include=target`: each step’s call flow or IVR `{id, name, type}`, null when gone.',
  },
  createIvrStep: {
    summary: 'Add a step (a key) to an IVR menu (administrators)',
    description:
      'option: default | 0-9 | * | #, one live step per key of the menu (else 422 "The option has already been taken."). ' +
      'target_type App\\Models\\CallFlow or App\\Models\\Ivr (menus nest) with target_id a live call flow or IVR of the PBX (else 422 on target_id).',
  },
  getIvrStep: {
    summary: 'One step of an IVR menu',
    description:
      'Any user of the PBX, its PBX key, or an integration key with the call-routing scope. ' +
      'A deleted or foreign IVR, a step of another IVR, or a deleted step is 404. ' +
      '`include=target`: the step’s call flow or IVR `{id, name, type}`, null when gone.',
  },
  updateIvrStep: {
    summary: 'Change a step of an IVR menu (administrators)',
    description: 'Changes the fields sent, with the rules of the creation; a new target_type alone is checked against the current target_id.',
  },
  deleteIvrStep: {
    summary: 'Delete a step (soft; its key is free again)',
    description:
      'Administrators of the PBX only. ' +
      'Soft delete: the step leaves the menu and its key is free for a new step; POST /ivrs/{ivr}/steps/{step}/restore brings it back while the key is still free. ' +
      'A deleted or foreign IVR, or a step that is not live in it, is 404.',
  },
  restoreIvrStep: {
    summary: 'Restore a deleted step',
    description:
      'Administrators of the PBX only. 422 when its key has been given to another live step meanwhile (option) or its target is no longer a live call flow or IVR (target_id).',
  },
} satisfies OperationDocs;
