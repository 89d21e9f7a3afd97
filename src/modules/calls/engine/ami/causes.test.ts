import { describe, expect, it } from 'vitest';
import { hangupCause, HANGUP_CAUSES, originateReason, ORIGINATE_REASONS } from './causes.js';

// Expected values written out from Asterisk's source (main/pbx.c pbx_dial_reason, include/asterisk/frame.h,
// include/asterisk/causes.h, main/channel.c causes[]), so a changed row fails here.
describe('OriginateResponse reasons', () => {
  it.each([
    ['0', 'FAILURE', /could not be created/, false],
    ['1', 'AST_CONTROL_HANGUP', /hung up/, false],
    ['3', 'AST_CONTROL_RINGING', /rang without being answered/, false],
    ['4', 'AST_CONTROL_ANSWER', /^answered$/, true],
    ['5', 'AST_CONTROL_BUSY', /^busy$/, false],
    ['8', 'AST_CONTROL_CONGESTION', /congestion/, false],
  ] as const)('Reason %s is %s', (code, name, text, answered) => {
    const reason = originateReason(code);
    expect(reason).toMatchObject({ code: Number(code), name, answered });
    expect(reason.text).toMatch(text);
  });

  it('has exactly the rows pbx_dial_reason() produces, and tells an unknown one as such', () => {
    expect(ORIGINATE_REASONS.map((reason) => reason.code)).toEqual([0, 1, 3, 4, 5, 8]);
    expect(originateReason('0').text).not.toMatch(/no such extension/);
    expect(originateReason('7')).toMatchObject({ code: 7, name: 'UNKNOWN', text: 'the call failed (reason 7)', answered: false });
    expect(originateReason(undefined)).toMatchObject({ name: 'UNKNOWN', answered: false });
  });
});

describe('Q.850 hangup causes', () => {
  it.each([
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
  ] as const)('cause %i is %s', (code, name, text) => {
    expect(hangupCause(String(code))).toEqual({ code, name, text });
  });

  it('covers every cause Asterisk names, and answers "Unknown" for others as ast_cause2str() does', () => {
    expect(HANGUP_CAUSES).toHaveLength(49);
    expect(hangupCause('0')).toEqual({ code: 0, name: 'UNKNOWN', text: 'Unknown' });
    expect(hangupCause('4')).toEqual({ code: 4, name: 'UNKNOWN', text: 'Unknown' });
    expect(hangupCause('')).toEqual({ code: 0, name: 'UNKNOWN', text: 'Unknown' });
  });
});
