/** Test data builders for call detail records (used by the tests of calls, cdrs and the engines). */
import { buildValidator } from '../../../http/validator.js';
import type { IngestCdrView } from './cdrs.schemas.js';
import { callTimeOf } from './call-time.js';

let sequence = 1000;
export const nextCdrId = () => ++sequence + Math.floor(Math.random() * 1000) * 100_000;

/** `YYYY-MM-DD HH:MM:SS` (UTC) of a Date. */
export const callTime = callTimeOf;

export interface CdrSpec {
  cdrId?: number;
  start?: string;
  type?: 'INCOMING' | 'OUTGOING';
  callerUserId?: string | null;
  callerName?: string;
  callerNumber?: string;
  receiverUserId?: string | null;
  receiverName?: string;
  receiverNumber?: string;
  legStatus?: IngestCdrView['receivers'][number]['status'];
  internal?: boolean;
  talkSeconds?: number;
}

/** One realistic finished call: ringing for 8 seconds, then talking (or not) on one leg. */
export function buildCdr(spec: CdrSpec = {}): IngestCdrView & { cdr_id: number } {
  const start = new Date(`${(spec.start ?? '2026-01-10 10:00:00').replace(' ', 'T')}Z`);
  const answered = (spec.legStatus ?? 'ANSWERED') === 'ANSWERED';
  const talk = answered ? (spec.talkSeconds ?? 42) : 0;
  const answer = new Date(start.getTime() + 8000);
  const end = new Date(start.getTime() + 8000 + talk * 1000);
  const startTime = callTime(start);
  return {
    cdr_id: spec.cdrId ?? nextCdrId(),
    type: spec.type ?? 'INCOMING',
    start_time: startTime,
    answer_time: answered ? callTime(answer) : null,
    end_time: callTime(end),
    duration: 8 + talk,
    billsec: talk,
    is_internal: spec.internal ?? false,
    caller: { user_id: spec.callerUserId ?? null, name: spec.callerName ?? 'Jean Dupont', number: spec.callerNumber ?? '+352621000111' },
    receivers: [
      {
        user_id: spec.receiverUserId ?? null,
        status: spec.legStatus ?? 'ANSWERED',
        name: spec.receiverName ?? 'Front desk',
        number: spec.receiverNumber ?? '101',
        start_time: startTime,
        answer_time: answered ? callTime(answer) : null,
        end_time: callTime(end),
        duration: 8 + talk,
        billsec: talk,
        via_id: null,
        via_name: null,
        via_number: null,
        via_type: null,
      },
    ],
    call_flow: [
      { color: 'info', text: 'Call started', sub_text: null, time: startTime },
      {
        color: answered ? 'success' : 'warning',
        text: answered ? 'Answered' : 'Not answered',
        sub_text: spec.receiverName ?? 'Front desk',
        time: callTime(answered ? answer : end),
      },
    ],
  };
}

/** Whether a value satisfies a response schema, with the app's own ajv rules (formats included). */
export function matchesSchema(schema: object, value: unknown): boolean {
  const validate = buildValidator()({ schema, httpPart: 'body', method: 'GET', url: '/' }) as ((value: unknown) => boolean) & { errors?: unknown };
  const ok = validate(value);
  if (!ok) console.error(JSON.stringify(validate.errors));
  return ok;
}
