import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of queues.routes.ts, by operation id. */
export const QUEUES_DOCS = {
  listQueues: {
    summary: 'Call queues of the PBX',
    description:
      'Any user of the PBX, its PBX key, or an integration key with the call-routing scope. ' +
      '`search` matches the name; `filter[strategy]`, `filter[member_id]` (a user or extension) and `filter[trashed]` narrow the page; sorted by name unless `sort` says otherwise. ' +
      '`include`: members.user, members.extension, announcement, musicOnHold.',
  },
  createQueue: {
    summary: 'Create a call queue with its members',
    description:
      'Administrators of the PBX only. ' +
      'Defaults: strategy ringall, max_wait_seconds 300, no max_callers, member_timeout_seconds 20, wrap_up_seconds 10, overflow hangup, no members. music_on_hold_id must be a live sound file of type music, announcement_id of type announcement, the overflow a live target of the PBX, each member a live user or extension listed once (up to 200); every bad field is reported in one 422. ' +
      'The routing graph is checked as for call flows: a write that brings a new problem is 422 with `problems`.',
  },
  getQueue: {
    summary: 'One call queue',
    description:
      'Any user of the PBX, its PBX key, or an integration key with the call-routing scope. ' +
      'The queue with its members in ring order; a deleted queue, or another PBX’s, is 404. ' +
      '`include`: members.user, members.extension, announcement, musicOnHold.',
  },
  updateQueue: {
    summary: 'Change a call queue (only supplied fields; members replaces the whole list)',
    description:
      'Administrators of the PBX only. ' +
      'The fields sent change, with the limits and checks of the creation; `members` replaces the whole list, and a queue cannot overflow into itself (422). ' +
      'A deleted queue is 404. The routing graph is checked as for call flows (422 with `problems`).',
  },
  deleteQueue: {
    summary: 'Delete a call queue (soft; restorable)',
    description:
      'Administrators of the PBX only. Refused with 409 while an IVR, a call flow, a phone number or another queue’s overflow sends calls to it (listed in used_by).',
  },
  restoreQueue: {
    summary: 'Restore a deleted call queue',
    description:
      'Administrators of the PBX only. Its sound files and overflow target must still exist (else 422 naming the field); members whose user or extension was deleted meanwhile are dropped.',
  },
} satisfies OperationDocs;
