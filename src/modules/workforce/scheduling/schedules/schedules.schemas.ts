/**
 * Schedule management, spelt in camelCase as the contract spells this part ("Schedule (managed)",
 * "Assignable employee"); the additions (planning entries, the week grid) follow the same style.
 */
import { Type, type Static } from '@sinclair/typebox';
import { ListQuery } from '../../../../http/list-query.js';
import { DateTime, Nullable, PbxIdParam, StringEnum, Uuid } from '../../../../http/schema.js';
import { Day, HourMinute } from '../../shared/index.js';

export const SCOPE_TYPES = ['company', 'department', 'employees'] as const;

const IdName = Type.Object({ id: Uuid(), name: Type.String() });
const StatusRef = Nullable(IdName);

export const AssignableEmployee = Type.Object(
  {
    id: Uuid({ description: 'The employee id.' }),
    fullName: Type.String({ description: "In the tenant's name order.", examples: ['Luc Weber'] }),
    departmentId: Nullable(Uuid({ description: 'Department of the most recent contract active today; null when it has none.' })),
    departmentName: Nullable(Type.String()),
  },
  {
    $id: 'AssignableEmployee',
    examples: [
      { id: '35e7ffb7-97c6-4d7f-9c36-cd9b580f4f0f', fullName: 'Anna Schmit', departmentId: '0b0d53bd-6266-4844-9c1e-3d80c311ac4d', departmentName: 'Dispatch' },
    ],
  },
);
export type AssignableEmployeeView = Static<typeof AssignableEmployee>;

export const Schedule = Type.Object(
  {
    id: Uuid(),
    name: Type.String({ examples: ['Support hotline'] }),
    department: Nullable(IdName, { description: 'The first of `departments`; null when the scope covers no department.' }),
    scopeType: StringEnum(SCOPE_TYPES),
    scope: Type.Object(
      {
        companies: Type.Array(IdName),
        departments: Type.Array(IdName),
        employees: Type.Array(Type.Object({ id: Uuid(), fullName: Type.String() })),
      },
      { description: 'The raw selection; only the list of scopeType is filled, the other two are empty.' },
    ),
    departments: Type.Array(Type.Object({ id: Uuid(), name: Nullable(Type.String()) }), {
      description: 'Every department covered: the selected ones (department scope), else those of the assignable employees.',
    }),
    employees: Type.Array(Type.Ref(AssignableEmployee), { description: 'The assignable pool: only employees with a contract active today.' }),
    daysOfWeek: Type.Array(Type.Integer({ minimum: 1, maximum: 7 }), { description: 'ISO weekdays, 1 = Monday.' }),
    dayStartTime: Nullable(Type.String({ examples: ['08:00'] })),
    dayEndTime: Nullable(Type.String({ examples: ['18:00'] })),
    slotDurationMinutes: Type.Integer(),
    status: StatusRef,
    subStatus: StatusRef,
    statusFilters: Type.Array(Uuid(), { description: 'Statuses selectable on the grid; empty = all.' }),
    isActive: Type.Boolean(),
    createdAt: Nullable(DateTime()),
    updatedAt: Nullable(DateTime()),
  },
  {
    $id: 'Schedule',
    examples: [
      {
        id: '05e0e014-cf34-4585-826f-6884d6d7d373',
        name: 'Front desk',
        department: { id: '8a28f7c4-0ec7-4084-a3f6-e8b92261a4b3', name: 'Customer Service' },
        scopeType: 'company',
        scope: { companies: [{ id: 'b435c132-499f-4e72-b6ad-be0003a1867b', name: 'Acme Logistics S.à r.l.' }], departments: [], employees: [] },
        departments: [
          { id: '8a28f7c4-0ec7-4084-a3f6-e8b92261a4b3', name: 'Customer Service' },
          { id: '0b0d53bd-6266-4844-9c1e-3d80c311ac4d', name: 'Dispatch' },
        ],
        employees: [
          {
            id: '35e7ffb7-97c6-4d7f-9c36-cd9b580f4f0f',
            fullName: 'Anna Schmit',
            departmentId: '0b0d53bd-6266-4844-9c1e-3d80c311ac4d',
            departmentName: 'Dispatch',
          },
          {
            id: '12b55511-74b7-4ef6-b593-b3878fcb0519',
            fullName: 'Luc Weber',
            departmentId: '8a28f7c4-0ec7-4084-a3f6-e8b92261a4b3',
            departmentName: 'Customer Service',
          },
          {
            id: 'c0520a4b-eaf9-4b5d-bf35-586af4f62723',
            fullName: 'Marie Hoffmann',
            departmentId: '0b0d53bd-6266-4844-9c1e-3d80c311ac4d',
            departmentName: 'Dispatch',
          },
        ],
        daysOfWeek: [1, 2, 3, 4, 5],
        dayStartTime: '09:00',
        dayEndTime: '17:00',
        slotDurationMinutes: 60,
        status: { id: 'c0186f6d-8673-4879-871c-4568a27c647f', name: 'On duty' },
        subStatus: null,
        statusFilters: ['c0186f6d-8673-4879-871c-4568a27c647f', 'fd99db3d-e66c-450b-8cf2-77b5e9e682b9'],
        isActive: true,
        createdAt: '2026-11-02T08:30:00.000Z',
        updatedAt: '2026-11-02T08:30:00.000Z',
      },
    ],
  },
);
export type ScheduleView = Static<typeof Schedule>;

const ids = (description: string) => Type.Optional(Type.Array(Uuid(), { maxItems: 500, uniqueItems: true, description }));
const ScopeInput = Type.Object(
  {
    companies: ids('Company ids (scopeType company).'),
    departments: ids('Department ids (scopeType department).'),
    employees: ids('Employee ids (scopeType employees).'),
  },
  { additionalProperties: false },
);
const fields = {
  name: Type.String({ minLength: 1, maxLength: 128 }),
  scopeType: StringEnum(SCOPE_TYPES, { description: 'Default department.' }),
  scope: ScopeInput,
  daysOfWeek: Type.Array(Type.Integer({ minimum: 1, maximum: 7 }), { uniqueItems: true, maxItems: 7, description: 'ISO weekdays, 1 = Monday.' }),
  dayStartTime: Nullable(HourMinute('Start of the daily window; with dayEndTime, or both null for the whole day.')),
  dayEndTime: Nullable(
    Type.String({ pattern: '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$', description: 'End of the daily window (24:00 allowed), after dayStartTime.' }),
  ),
  slotDurationMinutes: Type.Integer({ minimum: 5, maximum: 720, description: 'Default: the configured SCHEDULE_SLOT_MINUTES (30).' }),
  statusId: Nullable(Uuid({ description: 'Default status of new entries: a live status (not a sub-status).' })),
  subStatusId: Nullable(Uuid({ description: 'Default sub-status: a live sub-status of statusId.' })),
  statusFilters: Type.Array(Uuid(), { uniqueItems: true, maxItems: 100, description: 'Live statuses selectable on the grid; empty = all.' }),
  isActive: Type.Boolean({ description: 'Default true.' }),
};
const optional = <T extends Record<string, import('@sinclair/typebox').TSchema>>(props: T) =>
  Object.fromEntries(Object.entries(props).map(([key, schema]) => [key, Type.Optional(schema)])) as {
    [K in keyof T]: import('@sinclair/typebox').TOptional<T[K]>;
  };
export const CreateScheduleBody = Type.Object(
  { ...optional(fields), name: fields.name, scope: fields.scope },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Hotline Luxembourg',
        scopeType: 'department',
        scope: { departments: ['2b4d6f8a-0c1e-4a3b-9d5f-7e9a1c3b5d70'] },
        daysOfWeek: [1, 2, 3, 4, 5],
        dayStartTime: '08:00',
        dayEndTime: '18:00',
        slotDurationMinutes: 30,
        statusId: null,
        subStatusId: null,
        statusFilters: [],
        isActive: true,
      },
    ],
  },
);
export const UpdateScheduleBody = Type.Object(optional(fields), {
  additionalProperties: false,
  examples: [{ daysOfWeek: [1, 2, 3, 4, 5, 6], dayEndTime: '20:00' }],
});
export type UpdateScheduleInput = Static<typeof UpdateScheduleBody>;

export const ScheduleParams = Type.Object({ pbx_id: PbxIdParam, schedule: Uuid() });
export const ScheduleListQuery = ListQuery({ sort: ['name', 'created_at'], filters: { isActive: Type.Boolean() } });

export const PlanningEntry = Type.Object(
  {
    id: Uuid(),
    scheduleId: Uuid(),
    employeeId: Uuid(),
    employeeName: Type.String(),
    date: Type.String({ format: 'date' }),
    startTime: Type.String({ examples: ['09:00'] }),
    endTime: Type.String({ examples: ['09:30'] }),
    status: StatusRef,
    subStatus: StatusRef,
    note: Nullable(Type.String()),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  {
    $id: 'PlanningEntry',
    examples: [
      {
        id: 'eb4b67d5-4863-4abc-917d-eeb4255cd89d',
        scheduleId: '2fd236a1-af3e-4c67-be44-ff615f3dd18a',
        employeeId: '35e7ffb7-97c6-4d7f-9c36-cd9b580f4f0f',
        employeeName: 'Anna Schmit',
        date: '2026-11-23',
        startTime: '08:00',
        endTime: '12:00',
        status: { id: 'c0186f6d-8673-4879-871c-4568a27c647f', name: 'On duty' },
        subStatus: { id: '634d48e6-989b-4841-9bdd-1dd38e1ba79f', name: 'Phone' },
        note: null,
        createdAt: '2026-11-02T08:30:00.000Z',
        updatedAt: '2026-11-02T08:30:00.000Z',
      },
    ],
  },
);
export type PlanningEntryView = Static<typeof PlanningEntry>;

export const CreateEntryBody = Type.Object(
  {
    employeeId: Uuid({ description: "One of the schedule's assignable employees (else 422)." }),
    date: Day('A day on one of the schedule\u2019s daysOfWeek.'),
    startTime: HourMinute('On the slot grid (dayStartTime + n \u00d7 slotDurationMinutes).'),
    endTime: Type.Optional(
      Type.String({
        pattern: '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$',
        description: 'On the slot grid, within the window; default one slot after startTime.',
      }),
    ),
    statusId: Type.Optional(Nullable(Uuid({ description: "Default: the schedule's status." }))),
    subStatusId: Type.Optional(Nullable(Uuid({ description: "Default: the schedule's sub-status." }))),
    note: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  },
  {
    additionalProperties: false,
    examples: [
      { employeeId: '6a1f3c8e-9b2d-4f7a-8e5c-2d4b6f8a0c17', date: '2026-03-02', startTime: '09:00', endTime: '12:00', note: 'Covers the German line' },
    ],
  },
);
export type CreateEntryInput = Static<typeof CreateEntryBody>;
export const UpdateEntryBody = Type.Object(
  {
    statusId: Type.Optional(Nullable(Uuid())),
    subStatusId: Type.Optional(Nullable(Uuid())),
    note: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  },
  { additionalProperties: false, examples: [{ statusId: '8c0e2a4b-6d1f-4b3c-a5e7-9f1b3d5c7e92', subStatusId: null, note: 'Swapped with Marc' }] },
);
export type UpdateEntryInput = Static<typeof UpdateEntryBody>;
export const EntryParams = Type.Object({ pbx_id: PbxIdParam, schedule: Uuid(), entry: Uuid() });

export const PlanningWeekQuery = Type.Object(
  { week: Type.Optional(Day("Any day of the ISO week; default the tenant's current week.")) },
  { additionalProperties: false },
);
export const PlanningWeek = Type.Object(
  {
    weekStart: Type.String({ format: 'date' }),
    weekEnd: Type.String({ format: 'date' }),
    isActive: Type.Boolean(),
    days: Type.Array(
      Type.Object({
        date: Type.String({ format: 'date' }),
        isScheduled: Type.Boolean({ description: 'A listed weekday of an active schedule: its slots take bookings.' }),
        slots: Type.Array(Type.Object({ startTime: Type.String(), endTime: Type.String(), entries: Type.Array(Type.Ref(PlanningEntry)) })),
      }),
    ),
  },
  {
    examples: [
      {
        weekStart: '2026-11-23',
        weekEnd: '2026-11-29',
        isActive: true,
        days: [
          {
            date: '2026-11-23',
            isScheduled: true,
            slots: [
              {
                startTime: '08:00',
                endTime: '08:30',
                entries: [
                  {
                    id: 'eb4b67d5-4863-4abc-917d-eeb4255cd89d',
                    scheduleId: '2fd236a1-af3e-4c67-be44-ff615f3dd18a',
                    employeeId: '35e7ffb7-97c6-4d7f-9c36-cd9b580f4f0f',
                    employeeName: 'Anna Schmit',
                    date: '2026-11-23',
                    startTime: '08:00',
                    endTime: '12:00',
                    status: { id: 'c0186f6d-8673-4879-871c-4568a27c647f', name: 'On duty' },
                    subStatus: { id: '634d48e6-989b-4841-9bdd-1dd38e1ba79f', name: 'Phone' },
                    note: null,
                    createdAt: '2026-11-02T08:30:00.000Z',
                    updatedAt: '2026-11-02T08:30:00.000Z',
                  },
                ],
              },
              {
                startTime: '08:30',
                endTime: '09:00',
                entries: [
                  {
                    id: 'eb4b67d5-4863-4abc-917d-eeb4255cd89d',
                    scheduleId: '2fd236a1-af3e-4c67-be44-ff615f3dd18a',
                    employeeId: '35e7ffb7-97c6-4d7f-9c36-cd9b580f4f0f',
                    employeeName: 'Anna Schmit',
                    date: '2026-11-23',
                    startTime: '08:00',
                    endTime: '12:00',
                    status: { id: 'c0186f6d-8673-4879-871c-4568a27c647f', name: 'On duty' },
                    subStatus: { id: '634d48e6-989b-4841-9bdd-1dd38e1ba79f', name: 'Phone' },
                    note: null,
                    createdAt: '2026-11-02T08:30:00.000Z',
                    updatedAt: '2026-11-02T08:30:00.000Z',
                  },
                ],
              },
            ],
          },
          { date: '2026-11-28', isScheduled: false, slots: [] },
        ],
      },
    ],
  },
);
export type PlanningWeekView = Static<typeof PlanningWeek>;
