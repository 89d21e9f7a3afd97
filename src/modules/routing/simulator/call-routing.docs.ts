import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of call-routing.routes.ts, by operation id. */
export const CALL_ROUTING_DOCS = {
  validateCallRouting: {
    summary: 'Check the whole routing of the PBX',
    description:
      'Lists every problem of the routing graph: a target that does not exist or is deleted, a sound file of the wrong type, a loop a call can run without the caller choosing anything, a call-flow node that cannot be reached, a time condition without a closed branch, a disabled user or an empty queue as the only target, an IVR whose default step is missing. Each write of a call flow, IVR, step or queue is refused when it would add one; this answers for the whole PBX, problems that arose later (a user disabled since) included.',
  },
  simulateCallRouting: {
    summary: 'Follow a call through the routing without placing it',
    description:
      'The path a call to one of the PBX’s numbers would take at an instant: the number, each call flow and node, the time condition’s branch and why (open hours, public and PBX holidays in the PBX time zone), IVR menus with the keys pressed or their timeouts, who rings and whether they can answer (disabled, do not disturb), queues and their overflow, up to the end of the call. ' +
      "The caller can change the route: a `caller` who is one of the PBX's global contacts goes where the contact's handling strategy sends them (a call flow, an extension or a user) when it is not `default`, else to the default external call flow of the contact's group, before the number's own destination (a step `contact` says so); any other caller follows the number. " +
      '404 when the number is not one of the PBX’s.',
  },
} satisfies OperationDocs;
