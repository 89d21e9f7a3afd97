import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of calls.routes.ts, by operation id. */
export const CALLS_DOCS = {
  placeCall: {
    summary: 'Place an outbound call for the authenticated user',
    description:
      "Rings the user's endpoints (its SIP devices, or those in `targets.sip_devices`, plus WebRTC, twinning and teams when asked for and configured; unconfigured ones are skipped and listed in `data.skipped_targets`), then dials `destination`, presenting `caller_identity` (the user's default when omitted). " +
      'The call is placed by the PBX engine: Asterisk over AMI when the PBX has enabled AMI settings, otherwise the embedded simulated engine, whose call detail record appears in the history a few seconds later. ' +
      '403 when the user may not use telephony, or asks for `anonymous` without being allowed anonymous calls. Engine failures answer `{status: "error", message}`: 502 (PBX unreachable, login or call refused), 503 (no engine configured, or the stored AMI host is no longer admitted by the operator allow-list: nothing is attempted), 504 (no answer in time). ' +
      'A call Asterisk cannot place at all (it reports the failure within AMI_ORIGINATE_WAIT_MS, 1.5 s by default) answers 502 with its reason; one still ringing then is a success: follow it with `GET /calls/{id}` or a `webhook_url`. ' +
      'Send an `Idempotency-Key` header to retry safely: within 24 hours a retry gets the first answer (header `Idempotent-Replayed: true`) and places no second call; the same key with another request gives 422, and 409 while the first is still being placed.',
  },
  getCall: {
    summary: 'A call placed through POST /calls/new: its status, reason and history record',
    description:
      'The status follows the PBX: queued, ringing, answered, failed (with the reason Asterisk gave), ended (with the hangup cause); `cdr_id` names the call-history record once the PBX reported it. ' +
      "A user reads its own calls (another user's is 403), an administrator every call of the PBX; another PBX's call is 404.",
  },
} satisfies OperationDocs;
