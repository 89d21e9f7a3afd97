import { Type, type Static } from '@sinclair/typebox';
import { DateOnly, Nullable, PbxIdParam, StringEnum, Uuid } from '../../../../http/schema.js';
import { Day, HourMinute } from '../../shared/index.js';
import { WorkingDayDetail } from '../absence-requests/absence-requests.schemas.js';

export const MAX_HOME_OFFICE_DATES = 100;
export const HOME_OFFICE_MONTHS_AHEAD = 6;
export const HOME_OFFICE_COMMENT_LENGTH = 500;

export const INVALID_DATE_REASONS = [
  'duplicate',
  'in_past',
  'beyond_six_months',
  'public_holiday',
  'no_contract',
  'not_a_working_day',
  'already_booked',
  'overlaps_absence',
] as const;
export type InvalidDateReason = (typeof INVALID_DATE_REASONS)[number];

export const HomeOfficeRequestBody = Type.Object(
  {
    dates: Type.Array(Day('A day today or later (the tenant\u2019s today) and within six months of it.'), {
      minItems: 1,
      maxItems: MAX_HOME_OFFICE_DATES,
      description: `1-${MAX_HOME_OFFICE_DATES} unique days; each becomes its own pending home-office row.`,
    }),
    comment: Type.Optional(Nullable(Type.String({ maxLength: HOME_OFFICE_COMMENT_LENGTH, description: 'Copied to every created row.' }))),
  },
  { additionalProperties: false, examples: [{ dates: ['2027-01-12', '2027-01-14'], comment: 'Working from Trier on Tuesdays and Thursdays' }] },
);
export type HomeOfficeRequestInput = Static<typeof HomeOfficeRequestBody>;

/** The 422 body of a refused home-office request: the usual `{message, errors}` plus `invalid_dates`. */
export const InvalidDatesBody = Type.Object(
  {
    message: Type.String(),
    errors: Type.Record(Type.String(), Type.Array(Type.String())),
    invalid_dates: Type.Optional(
      Type.Record(Type.String({ format: 'date' }), Type.Object({ reason: StringEnum(INVALID_DATE_REASONS), message: Type.String() }), {
        description:
          'Each refused date -> why. duplicate: sent twice; in_past: before the tenant\u2019s today; beyond_six_months: after today + 6 months; ' +
          'public_holiday: a full-day public or tenant holiday of the employee\u2019s company; no_contract: no contract of the employee covers it; ' +
          'not_a_working_day: the employee\u2019s work shift schedules nothing that day; already_booked: a pending or accepted home-office row holds it; ' +
          'overlaps_absence: a pending or accepted absence holds it. Nothing is created when any date is refused.',
        examples: [{ '2026-12-25': { reason: 'public_holiday', message: '2026-12-25 is a holiday of the employee\u2019s company.' } }],
      }),
    ),
  },
  { description: 'A parameter is invalid; `invalid_dates` is present when dates are refused (other 422s have only message and errors).' },
);

export const CalendarQuery = Type.Object(
  {
    'filter[department_id]': Type.Optional(
      Type.String({
        pattern: '^[0-9a-fA-F-]{36}(,[0-9a-fA-F-]{36})*$',
        description: 'Comma-separated department ids, matched by the department of each employee\u2019s contract active today; omit for the whole company.',
      }),
    ),
    'filter[from]': Type.Optional(Day('Entries overlapping this day or later.')),
    'filter[to]': Type.Optional(Day('Entries overlapping this day or earlier; not before filter[from].')),
  },
  { additionalProperties: false },
);

export const HomeOfficeCalendarEntry = Type.Object(
  {
    id: Uuid(),
    employee_id: Uuid(),
    employee_name: Nullable(Type.String({ description: 'In the tenant\u2019s name order.' })),
    department_id: Nullable(Uuid({ description: 'The department of the employee\u2019s contract active today.' })),
    type: Type.Literal('home_office'),
    sub_type: Nullable(Type.String()),
    status: StringEnum(['pending', 'approved', 'pending_removal'] as const, { description: 'The stored spelling: approved (accepted elsewhere).' }),
    start: DateOnly(),
    end: DateOnly({ description: 'The last day (inclusive).' }),
    total_seconds: Type.Integer(),
    days: Type.Array(Type.Object({ date: DateOnly(), seconds: Type.Integer() }), { description: 'The raw per-day map, usually one entry.' }),
    working_days: Type.Number(),
    workshift_seconds_per_day: Type.Integer({ description: '0 = unknown.' }),
    is_half_day: Type.Boolean(),
    starts_half_day: Type.Boolean(),
    ends_half_day: Type.Boolean(),
    start_time: Nullable(HourMinute('On a half-day start.')),
    end_time: Nullable(HourMinute('On a half-day end.')),
    working_day_details: Type.Array(WorkingDayDetail, {
      description: 'Working days only; a half day when the seconds fall short of workshift_seconds_per_day by more than 900.',
    }),
  },
  {
    $id: 'HomeOfficeCalendarEntry',
    examples: [
      {
        id: '9c2ea28d-2624-432e-81a0-ffea0b8584b8',
        employee_id: '12b55511-74b7-4ef6-b593-b3878fcb0519',
        employee_name: 'Luc Weber',
        department_id: '8a28f7c4-0ec7-4084-a3f6-e8b92261a4b3',
        type: 'home_office',
        sub_type: null,
        status: 'approved',
        start: '2026-11-30',
        end: '2026-11-30',
        total_seconds: 14400,
        days: [{ date: '2026-11-30', seconds: 14400 }],
        working_days: 1,
        workshift_seconds_per_day: 14400,
        is_half_day: false,
        starts_half_day: false,
        ends_half_day: false,
        start_time: null,
        end_time: null,
        working_day_details: [{ date: '2026-11-30', seconds: 14400, is_half_day: false, start_time: null, end_time: null }],
      },
    ],
  },
);
export type HomeOfficeCalendarEntryView = Static<typeof HomeOfficeCalendarEntry>;

export const CalendarParams = Type.Object({ pbx_id: PbxIdParam });
