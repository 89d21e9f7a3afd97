import { describe, expect, it } from 'vitest';
import { hangupCause, HANGUP_CAUSES, originateReason, ORIGINATE_REASONS } from './causes.js';

// Expected values written out from Asterisk's source (main/pbx.c pbx_dial_reason, include/asterisk/frame.h),
// so a changed row fails here.
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
  it.each(HANGUP_CAUSES.map((cause) => [cause.code, cause.name, cause] as const))('cause %i is %s', (code, _name, cause) => {
    expect(hangupCause(String(code))).toEqual(cause);
  });

  // A few rows written out from Asterisk's include/asterisk/causes.h and main/channel.c causes[],
  // the ones calls end with most; the table itself is the one the engine reads (causes.ts).
  it.each([
    [1, 'UNALLOCATED', 'Unallocated (unassigned) number'],
    [16, 'NORMAL_CLEARING', 'Normal Clearing'],
    [17, 'USER_BUSY', 'User busy'],
    [19, 'NO_ANSWER', 'User alerting, no answer'],
    [21, 'CALL_REJECTED', 'Call Rejected'],
    [34, 'NORMAL_CIRCUIT_CONGESTION', 'Circuit/channel congestion'],
    [127, 'INTERWORKING', 'Interworking, unspecified'],
  ] as const)('names cause %i %s as Asterisk does', (code, name, text) => {
    expect(hangupCause(String(code))).toEqual({ code, name, text });
  });

  it('covers every cause Asterisk names, each once in code order, and answers "Unknown" for others as ast_cause2str() does', () => {
    expect(HANGUP_CAUSES).toHaveLength(49);
    const codes = HANGUP_CAUSES.map((cause) => cause.code);
    expect(codes).toEqual([...new Set(codes)].sort((a, b) => a - b));
    expect(HANGUP_CAUSES.every((cause) => /^[A-Z_]+$/.test(cause.name) && cause.text !== '')).toBe(true);
    expect(hangupCause('0')).toEqual({ code: 0, name: 'UNKNOWN', text: 'Unknown' });
    expect(hangupCause('4')).toEqual({ code: 4, name: 'UNKNOWN', text: 'Unknown' });
    expect(hangupCause('')).toEqual({ code: 0, name: 'UNKNOWN', text: 'Unknown' });
  });
});
