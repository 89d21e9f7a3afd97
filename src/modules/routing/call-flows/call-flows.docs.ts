import type { OperationDocs } from '../../../http/resource-routes.js';

/** What every write says of the routing graph's check. */
const WRITE_NOTE =
  'The whole routing graph of the PBX is checked: a write that brings a new problem (a target that does not exist or is deleted, a loop without a caller choice, an unreachable node, a time condition without a closed branch, a disabled user or an empty queue as the only target) is refused with 422, `errors` keyed by the path of each problem and `problems` listing them.';

/** The OpenAPI text of call-flows.routes.ts, by operation id. */
export const CALL_FLOWS_DOCS = {
  listCallFlows: {
    summary: 'Call flows of the PBX',
    description:
      'Any user of the PBX, its PBX key, or an integration key with the call-routing scope. ' +
      '`search` matches name and description; `filter[node_type]` keeps flows having a node of that type, `filter[target_id]` flows whose nodes point at that user, extension, queue, IVR, call flow or sound file; `filter[trashed]` (without, with, only). ' +
      'Sorted by name unless `sort` says otherwise; `include=used_by` lists what routes into each flow.',
  },
  createCallFlow: {
    summary: 'Create a call flow',
    description: WRITE_NOTE,
  },
  getCallFlow: {
    summary: 'One call flow',
    description:
      'Any user of the PBX, its PBX key, or an integration key with the call-routing scope. ' +
      'The flow with its entry and nodes; a deleted flow, or another PBX’s, is 404 (list it with filter[trashed]). ' +
      '`include=used_by` lists the phone numbers, IVR steps, flows, queues and contacts that route into it.',
  },
  updateCallFlow: {
    summary: 'Change a call flow (nodes given replace them all)',
    description: WRITE_NOTE,
  },
  deleteCallFlow: {
    summary: 'Delete a call flow (soft; restorable)',
    description:
      'Administrators of the PBX only. Refused with 409 and `used_by` while a phone number, an IVR step, another flow, a queue overflow or a contact routes into it.',
  },
  restoreCallFlow: {
    summary: 'Restore a deleted call flow',
    description: WRITE_NOTE,
  },
} satisfies OperationDocs;
