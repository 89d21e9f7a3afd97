/**
 * What Asterisk's numbers mean, taken from its source (asterisk/asterisk):
 * - the `Reason` of an `OriginateResponse` event is an `ast_control_frame_type` chosen by
 *   `pbx_dial_reason()` in `main/pbx.c` (values from `include/asterisk/frame.h`);
 * - hangup causes are the Q.850 codes of `include/asterisk/causes.h`, named and described as in
 *   the `causes[]` table of `main/channel.c` (what `Cause-txt` and `HANGUPCAUSE` show).
 */

export interface OriginateReason {
  code: number;
  /** Asterisk's constant. */
  name: string;
  /** What happened, as an operator reads it. */
  text: string;
  /** Whether the call went through. */
  answered: boolean;
}

/**
 * `pbx_dial_reason()`: answered 4; the originated channel hung up 1; busy (cause 17) 5;
 * rejected, out of order, temporary failure or congestion (causes 21, 27, 34, 38, 41, 42) 8;
 * no answer or answered elsewhere (19, 26) 3; anything else, including a channel that could not
 * be created at all (an unknown channel technology or endpoint), 0.
 */
export const ORIGINATE_REASONS: readonly OriginateReason[] = [
  { code: 0, name: 'FAILURE', text: 'the call failed: the channel could not be created or the PBX gave up on it', answered: false },
  { code: 1, name: 'AST_CONTROL_HANGUP', text: 'the call was hung up before it was answered', answered: false },
  { code: 3, name: 'AST_CONTROL_RINGING', text: 'it rang without being answered', answered: false },
  { code: 4, name: 'AST_CONTROL_ANSWER', text: 'answered', answered: true },
  { code: 5, name: 'AST_CONTROL_BUSY', text: 'busy', answered: false },
  { code: 8, name: 'AST_CONTROL_CONGESTION', text: 'congestion: the call was rejected or the network or destination was unavailable', answered: false },
];

const reasons = new Map(ORIGINATE_REASONS.map((reason) => [reason.code, reason]));

/** The meaning of an OriginateResponse `Reason`; an unknown or missing one is told as such. */
export function originateReason(value: string | undefined): OriginateReason {
  const code = Number(value);
  const known = value !== undefined && value.trim() !== '' && Number.isInteger(code) ? reasons.get(code) : undefined;
  return known ?? { code: Number.isInteger(code) ? code : -1, name: 'UNKNOWN', text: `the call failed (reason ${value ?? 'unknown'})`, answered: false };
}

export interface HangupCause {
  code: number;
  name: string;
  text: string;
}

/** Q.850 causes as Asterisk names them (`causes[]` of main/channel.c). */
export const HANGUP_CAUSES: readonly HangupCause[] = (
  [
    [1, 'UNALLOCATED', 'Unallocated (unassigned) number'],
    [2, 'NO_ROUTE_TRANSIT_NET', 'No route to specified transmit network'],
    [3, 'NO_ROUTE_DESTINATION', 'No route to destination'],
    [5, 'MISDIALLED_TRUNK_PREFIX', 'Misdialed trunk prefix'],
    [6, 'CHANNEL_UNACCEPTABLE', 'Channel unacceptable'],
    [7, 'CALL_AWARDED_DELIVERED', 'Call awarded and being delivered in an established channel'],
    [8, 'PRE_EMPTED', 'Pre-empted'],
    [14, 'NUMBER_PORTED_NOT_HERE', 'Number ported elsewhere'],
    [16, 'NORMAL_CLEARING', 'Normal Clearing'],
    [17, 'USER_BUSY', 'User busy'],
    [18, 'NO_USER_RESPONSE', 'No user responding'],
    [19, 'NO_ANSWER', 'User alerting, no answer'],
    [20, 'SUBSCRIBER_ABSENT', 'Subscriber absent'],
    [21, 'CALL_REJECTED', 'Call Rejected'],
    [22, 'NUMBER_CHANGED', 'Number changed'],
    [23, 'REDIRECTED_TO_NEW_DESTINATION', 'Redirected to new destination'],
    [26, 'ANSWERED_ELSEWHERE', 'Answered elsewhere'],
    [27, 'DESTINATION_OUT_OF_ORDER', 'Destination out of order'],
    [28, 'INVALID_NUMBER_FORMAT', 'Invalid number format'],
    [29, 'FACILITY_REJECTED', 'Facility rejected'],
    [30, 'RESPONSE_TO_STATUS_ENQUIRY', 'Response to STATus ENQuiry'],
    [31, 'NORMAL_UNSPECIFIED', 'Normal, unspecified'],
    [34, 'NORMAL_CIRCUIT_CONGESTION', 'Circuit/channel congestion'],
    [38, 'NETWORK_OUT_OF_ORDER', 'Network out of order'],
    [41, 'NORMAL_TEMPORARY_FAILURE', 'Temporary failure'],
    [42, 'SWITCH_CONGESTION', 'Switching equipment congestion'],
    [43, 'ACCESS_INFO_DISCARDED', 'Access information discarded'],
    [44, 'REQUESTED_CHAN_UNAVAIL', 'Requested channel not available'],
    [50, 'FACILITY_NOT_SUBSCRIBED', 'Facility not subscribed'],
    [52, 'OUTGOING_CALL_BARRED', 'Outgoing call barred'],
    [54, 'INCOMING_CALL_BARRED', 'Incoming call barred'],
    [57, 'BEARERCAPABILITY_NOTAUTH', 'Bearer capability not authorized'],
    [58, 'BEARERCAPABILITY_NOTAVAIL', 'Bearer capability not available'],
    [65, 'BEARERCAPABILITY_NOTIMPL', 'Bearer capability not implemented'],
    [66, 'CHAN_NOT_IMPLEMENTED', 'Channel not implemented'],
    [69, 'FACILITY_NOT_IMPLEMENTED', 'Facility not implemented'],
    [81, 'INVALID_CALL_REFERENCE', 'Invalid call reference value'],
    [88, 'INCOMPATIBLE_DESTINATION', 'Incompatible destination'],
    [95, 'INVALID_MSG_UNSPECIFIED', 'Invalid message unspecified'],
    [96, 'MANDATORY_IE_MISSING', 'Mandatory information element is missing'],
    [97, 'MESSAGE_TYPE_NONEXIST', 'Message type nonexist.'],
    [98, 'WRONG_MESSAGE', 'Wrong message'],
    [99, 'IE_NONEXIST', 'Info. element nonexist or not implemented'],
    [100, 'INVALID_IE_CONTENTS', 'Invalid information element contents'],
    [101, 'WRONG_CALL_STATE', 'Message not compatible with call state'],
    [102, 'RECOVERY_ON_TIMER_EXPIRE', 'Recover on timer expiry'],
    [103, 'MANDATORY_IE_LENGTH_ERROR', 'Mandatory IE length error'],
    [111, 'PROTOCOL_ERROR', 'Protocol error, unspecified'],
    [127, 'INTERWORKING', 'Interworking, unspecified'],
  ] as const
).map(([code, name, text]) => ({ code, name, text }));

const causes = new Map(HANGUP_CAUSES.map((cause) => [cause.code, cause]));

/** The cause of a Hangup event's `Cause`; as `ast_cause2str()`, one Asterisk does not name (0 included) is "Unknown". */
export function hangupCause(value: string | undefined): HangupCause {
  const code = Number(value);
  const valid = value !== undefined && value.trim() !== '' && Number.isInteger(code);
  return (valid ? causes.get(code) : undefined) ?? { code: valid ? code : 0, name: 'UNKNOWN', text: 'Unknown' };
}
