import { Type, type Static } from '@sinclair/typebox';
import { ListQuery } from '../../../../http/list-query.js';
import { DateOnly, DateTime, Nullable, PbxIdParam, StringEnum, Uuid } from '../../../../http/schema.js';
import { Day, HourMinute } from '../../shared/index.js';

export const ABSENCE_TYPES = ['legal', 'home_office', 'illness', 'special', 'overtime_balance'] as const;
export type AbsenceType = (typeof ABSENCE_TYPES)[number];
/** The types an employee asks for with a period (home-office days have their own request). */
export const PERIOD_TYPES = ['legal', 'illness', 'special', 'overtime_balance'] as const;
export const ABSENCE_STATUSES = ['pending', 'accepted', 'rejected', 'canceled', 'pending_removal', 'removed'] as const;
export type AbsenceStatus = (typeof ABSENCE_STATUSES)[number];
export const VALIDATOR_STATUSES = ['pending', 'accepted', 'rejected'] as const;
export const NEXT_AVAILABILITY_REASONS = ['at_work', 'next_working_day', 'after_request', 'after_absences', 'removal', 'no_scheduled_work'] as const;
export type NextAvailabilityReason = (typeof NEXT_AVAILABILITY_REASONS)[number];

export const MAX_COMMENT_LENGTH = 500;
/** The longest period one request covers, both ends counted. */
export const MAX_PERIOD_DAYS = 366;

export const NextAvailability = Type.Object(
  {
    date: Nullable(
      DateOnly({
        description: 'The first day the employee is at work (more than 15 minutes of its scheduled day left); null when none within a year.',
        examples: ['2026-12-01'],
      }),
    ),
    time: Nullable(
      HourMinute('From when on that day, when a half-day absence ends that morning (its end_time); null when the employee is there from the start of the day.'),
    ),
    in_past: Type.Boolean({ description: "The date is before the tenant's today (a removal can move it there).", examples: [false] }),
    reason: StringEnum(NEXT_AVAILABILITY_REASONS, {
      description:
        'at_work: the anchor day itself (GET next-availability: today); next_working_day: the first working day after days off (weekend, holiday) only; ' +
        'after_request: the first working day after this request; after_absences: later, because accepted absences follow on (or, on GET, the employee is away today); ' +
        'removal: this row takes a request back, so the answer is the first working day of the removed period not covered by another accepted absence, possibly in the past; ' +
        'no_scheduled_work: no working day within 366 days of the anchor (date null).',
    }),
  },
  { description: 'When the employee is next at work.' },
);
export type NextAvailabilityView = Static<typeof NextAvailability>;

export const WorkingDayDetail = Type.Object({
  date: DateOnly(),
  seconds: Type.Integer({ description: 'Seconds taken that day.' }),
  is_half_day: Type.Boolean({ description: 'The seconds fall short of workshift_seconds_per_day by more than 900 (15 minutes).' }),
  start_time: Nullable(HourMinute('Non-null only on a half-day first day.')),
  end_time: Nullable(HourMinute('Non-null only on a half-day last day.')),
});

/**
 * The balance change a recurring transaction's run wrote: kept out of working_days and
 * total_seconds, which count time taken, so that a sum of those never counts a credit as time used.
 */
export const BalanceAdjustment = Type.Object(
  {
    tr_type: StringEnum(['credit', 'debit'] as const, { description: 'credit: added to the balance; debit: taken from it.' }),
    working_days: Type.Number({
      description:
        'Signed change, in days, of the day balance the type keeps: leave_balance for legal, ho_balance for home_office (positive for a credit, negative for a debit); 0 for overtime_balance.',
      examples: [2.5, -1],
    }),
    seconds: Type.Integer({
      format: 'int32',
      description:
        'Signed change, in seconds, of compensatory_balance for overtime_balance (positive for a credit, negative for a debit; the template\u2019s hours \u00d7 3600); 0 for legal and home_office.',
      examples: [7200, -5400],
    }),
    recurring_transaction_id: Uuid({ description: 'The recurring transaction whose run wrote the row.' }),
  },
  {
    description:
      "Only on a balance adjustment a recurring transaction's run wrote; null on requests. Such a row is accepted as written, holds no day " +
      '(requested_time is empty, total_seconds and working_days are 0, working_day_details is empty) and cannot be approved, rejected, canceled or taken back (422): ' +
      'its amount and sign are here and nowhere else. Sum these, not total_seconds or working_days, for the history of a balance.',
  },
);
export type BalanceAdjustmentView = Static<typeof BalanceAdjustment>;

export const AbsenceRequest = Type.Object(
  {
    id: Uuid(),
    mxvp_user_id: Nullable(Uuid({ description: 'The tenant (PBX) that owns the request.' })),
    employee_id: Uuid({ description: 'The owning employee; what filter[employee_id] matches.' }),
    requester_id: Uuid({ description: 'Always equals employee_id.' }),
    creator_id: Uuid({ description: 'Always equals employee_id.' }),
    ext_id: Nullable(Type.String({ description: "The employee's id in an external HR system." })),
    company_id: Nullable(Uuid({ description: "The company of the contract governing the request's first day." })),
    absence_request_id: Uuid({ description: 'Always equals id.' }),
    holiday_id: Type.Null({ description: 'Reserved, always null.' }),
    status: Nullable(StringEnum(ABSENCE_STATUSES)),
    type: StringEnum(ABSENCE_TYPES),
    sub_type: Nullable(
      Type.String({
        description:
          "`removal` on the row that takes an accepted request back; on a balance adjustment, the recurring transaction's sub_type or `recurring`; null otherwise.",
        examples: ['removal'],
      }),
    ),
    start: Nullable(DateTime({ description: 'Midnight UTC of the first day.', examples: ['2026-07-06T00:00:00.000Z'] })),
    end: Nullable(
      DateTime({
        description: 'Midnight UTC after the last day (exclusive): do not derive the length from end - start, use working_days.',
        examples: ['2026-07-11T00:00:00.000Z'],
      }),
    ),
    requested_time: Nullable(
      Type.Record(Type.String({ format: 'date' }), Type.Integer(), {
        description: "Working day -> seconds taken, in the employee's own scheduled-day seconds; only working days appear.",
        examples: [{ '2026-07-06': 28800, '2026-07-07': 28800 }],
      }),
    ),
    working_days: Type.Number({
      description:
        "Working days consumed, each day as its share of a full day of the employee's shift (4 h of an 8 h day = 0.5). What an approval debits. " +
        '0 on a balance adjustment (see adjustment), which consumes no day.',
      examples: [5, 0.5],
    }),
    total_seconds: Type.Integer({
      format: 'int32',
      description: 'The sum of requested_time; 0 when there is no breakdown (a balance adjustment: its signed amount is in adjustment).',
    }),
    workshift_seconds_per_day: Type.Integer({
      format: 'int32',
      description: "Seconds of a full day of the employee's shift on the first working day (28800 for 8 h); 0 = unknown.",
    }),
    is_half_day: Type.Boolean({ description: 'starts_half_day or ends_half_day.' }),
    starts_half_day: Type.Boolean({ description: 'Only the second half of the first day is taken (on a single day, both flags are true).' }),
    ends_half_day: Type.Boolean({ description: 'Only the first half of the last day is taken (on a single day, both flags are true).' }),
    start_time: Nullable(
      HourMinute("On a half-day start: the request's time, else the tenant's half_day_split (default 12:00). A single half day in the morning has none."),
    ),
    end_time: Nullable(
      HourMinute(
        "On a half-day end: the request's time, else the tenant's half_day_split (default 12:00); when the employee is back. A single half day in the afternoon has none.",
      ),
    ),
    working_day_details: Type.Array(WorkingDayDetail, { description: 'Working days only, ascending by date.' }),
    comment: Nullable(Type.String()),
    accepted_by: Type.Array(
      Type.Object({
        employee_id: Nullable(Uuid({ description: 'The validator; null = any administrator of the PBX.' })),
        status: StringEnum(VALIDATOR_STATUSES),
      }),
      { description: 'One entry per validator, in order; accepted only when every entry is accepted, rejected by one rejection.' },
    ),
    next_availability: Type.Optional(
      Nullable(NextAvailability, {
        description:
          'When the employee is next at work if this request goes through: anchored at the request, counting accepted absences (including accepted ones with a removal pending) ' +
          'plus this request, ignoring other queued ones. Null for home_office, overtime_balance and balance adjustments. On lists only with include=next_availability.',
      }),
    ),
    request_group_id: Nullable(Uuid({ description: 'Shared by the rows one home-office request created; null otherwise.' })),
    removal_of_id: Nullable(Uuid({ description: 'On a removal row: the accepted request it takes back.' })),
    adjustment: Nullable(BalanceAdjustment),
    recurring_transaction_id: Nullable(Uuid({ description: 'On a balance adjustment: the recurring transaction whose run wrote it.' })),
    created: DateTime(),
    modified: DateTime(),
  },
  {
    $id: 'AbsenceRequest',
    examples: [
      {
        id: 'd80d5522-68d8-4ee9-b028-eeab2176de12',
        mxvp_user_id: '5b434841-6826-4eb7-9e1e-52f33261ad31',
        employee_id: '602af2bf-11c0-4a5e-bf8d-b76d932615bd',
        requester_id: '602af2bf-11c0-4a5e-bf8d-b76d932615bd',
        creator_id: '602af2bf-11c0-4a5e-bf8d-b76d932615bd',
        ext_id: 'A-1005',
        company_id: '27f8a970-806c-4b48-b2d1-c9d6dddc6532',
        absence_request_id: 'd80d5522-68d8-4ee9-b028-eeab2176de12',
        holiday_id: null,
        status: 'pending_removal',
        type: 'legal',
        sub_type: null,
        start: '2027-01-04T00:00:00.000Z',
        end: '2027-01-06T00:00:00.000Z',
        requested_time: { '2027-01-04': 28800, '2027-01-05': 28800 },
        working_days: 2,
        total_seconds: 57600,
        workshift_seconds_per_day: 28800,
        is_half_day: false,
        starts_half_day: false,
        ends_half_day: false,
        start_time: null,
        end_time: null,
        working_day_details: [
          { date: '2027-01-04', seconds: 28800, is_half_day: false, start_time: null, end_time: null },
          { date: '2027-01-05', seconds: 28800, is_half_day: false, start_time: null, end_time: null },
        ],
        comment: 'Trip, maybe not',
        accepted_by: [{ employee_id: '35e7ffb7-97c6-4d7f-9c36-cd9b580f4f0f', status: 'accepted' }],
        request_group_id: null,
        removal_of_id: null,
        adjustment: null,
        recurring_transaction_id: null,
        created: '2026-11-02T08:30:00.000Z',
        modified: '2026-11-02T08:30:00.000Z',
      },
    ],
  },
);
export type AbsenceRequestView = Static<typeof AbsenceRequest>;

export const CreateAbsenceBody = Type.Object(
  {
    type: StringEnum(PERIOD_TYPES, { description: 'legal (paid leave), illness, special (special leave) or overtime_balance (time off against overtime).' }),
    start: Day('The first day.'),
    end: Day(`The last day (inclusive), on or after start; at most ${MAX_PERIOD_DAYS} days counting both ends.`),
    starts_half_day: Type.Optional(
      Type.Boolean({ description: 'Only the second half of the first day (on a single day: the afternoon, unless end_time says otherwise).' }),
    ),
    ends_half_day: Type.Optional(Type.Boolean({ description: 'Only the first half of the last day (on a single day: the morning).' })),
    start_time: Type.Optional(
      Nullable(HourMinute("When a half-day start begins (a single day: sent alone, the afternoon off from then); default the tenant's half_day_split.")),
    ),
    end_time: Type.Optional(
      Nullable(HourMinute("When a half-day end ends (a single day: sent alone, the morning off until then); default the tenant's half_day_split.")),
    ),
    comment: Type.Optional(Nullable(Type.String({ maxLength: MAX_COMMENT_LENGTH }))),
  },
  {
    additionalProperties: false,
    examples: [
      { type: 'legal', start: '2026-08-03', end: '2026-08-14', starts_half_day: false, ends_half_day: true, comment: 'Summer holidays at the Moselle' },
    ],
  },
);
export type CreateAbsenceInput = Static<typeof CreateAbsenceBody>;

export const AbsenceRequestParams = Type.Object({ pbx_id: PbxIdParam, absence_request: Uuid({ description: 'The absence request id.' }) });

const filters = {
  status: Type.String({
    pattern: `^(${ABSENCE_STATUSES.join('|')})(,(${ABSENCE_STATUSES.join('|')}))*$`,
    description: `Comma-separated statuses: ${ABSENCE_STATUSES.join(', ')}.`,
  }),
  type: Type.String({
    pattern: `^(${ABSENCE_TYPES.join('|')})(,(${ABSENCE_TYPES.join('|')}))*$`,
    description: `Comma-separated types: ${ABSENCE_TYPES.join(', ')}.`,
  }),
  from: Day('Requests ending on or after this day.'),
  to: Day('Requests starting on or before this day; not before filter[from].'),
};
export const ABSENCE_SORTS = ['start', 'created'] as const;

export const EmployeeAbsenceListQuery = ListQuery({ search: false, sort: ABSENCE_SORTS, include: ['next_availability'], filters });
export const AbsenceListQuery = ListQuery({
  search: false,
  sort: ABSENCE_SORTS,
  include: ['next_availability'],
  filters: {
    ...filters,
    employee_id: Uuid({ description: 'Requests of this employee.' }),
    awaiting_me: Type.Boolean({
      description:
        "Only pending rows with an entry still pending for the caller (its employee's entry; for administrators and the PBX key, every pending row).",
    }),
  },
});
export type AbsenceListFilters = {
  status?: string;
  type?: string;
  from?: string;
  to?: string;
  employee_id?: string;
  awaiting_me?: boolean;
};
