import { Type, type Static, type TInteger, type TOptional } from '@sinclair/typebox';
import { IncludeParam } from '../../../../http/include.js';
import { ListQuery } from '../../../../http/list-query.js';
import { DateTime, Nullable, PbxIdParam, Uuid } from '../../../../http/schema.js';
import { Day, TrashedFilter } from '../../shared/index.js';

/** ISO weekdays in order, as the columns of a weekly pattern are named. */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const seconds = (description: string) => Type.Integer({ minimum: 0, maximum: 86400, description });
const daySeconds = Object.fromEntries(WEEKDAYS.map((day) => [day, seconds(`Seconds of work on ${day}s, 0 to 86400.`)])) as Record<Weekday, TInteger>;
const optionalDaySeconds = Object.fromEntries(
  WEEKDAYS.map((day) => [day, Type.Optional(seconds(`Seconds of work on ${day}s, 0 to 86400 (default 0).`))]),
) as Record<Weekday, TOptional<TInteger>>;

/** A named weekly pattern: seconds of work per ISO weekday. */
export const WorkShift = Type.Object(
  {
    id: Uuid(),
    name: Type.String({ examples: ['Full time 40 h'] }),
    ...daySeconds,
    weekly_seconds: Type.Integer({ description: 'The seven days added up.', examples: [144000] }),
    created_at: DateTime(),
    updated_at: DateTime(),
    delete_date: Nullable(DateTime()),
  },
  {
    $id: 'WorkShift',
    examples: [
      {
        id: '4623615f-7930-4592-bce5-929e08d86523',
        name: 'Full time 40 h',
        monday: 28800,
        tuesday: 28800,
        wednesday: 28800,
        thursday: 28800,
        friday: 28800,
        saturday: 0,
        sunday: 0,
        weekly_seconds: 144000,
        created_at: '2026-11-02T08:30:00.000Z',
        updated_at: '2026-11-02T08:30:00.000Z',
        delete_date: null,
      },
    ],
  },
);
export type WorkShiftView = Static<typeof WorkShift>;

const name = Type.String({ minLength: 1, maxLength: 255, description: 'Unique among the PBX\u2019s live work shifts.' });
export const CreateWorkShiftBody = Type.Object(
  { name, ...optionalDaySeconds },
  {
    additionalProperties: false,
    examples: [{ name: 'Part time 32 h (Mon-Thu)', monday: 28800, tuesday: 28800, wednesday: 28800, thursday: 28800, friday: 0, saturday: 0, sunday: 0 }],
  },
);
export const UpdateWorkShiftBody = Type.Object(
  { name: Type.Optional(name), ...optionalDaySeconds },
  { additionalProperties: false, examples: [{ name: 'Part time 36 h', friday: 14400 }] },
);
export type WorkShiftInput = Static<typeof UpdateWorkShiftBody>;

export const WorkShiftParams = Type.Object({ pbx_id: PbxIdParam, work_shift: Uuid() });
export const WorkShiftListQuery = ListQuery({ sort: ['name', 'weekly_seconds', 'created_at'], filters: { trashed: TrashedFilter } });

/** An employee works a pattern over a period. */
export const WorkShiftAssignment = Type.Object(
  {
    id: Uuid(),
    employee_id: Uuid(),
    work_shift_id: Uuid(),
    valid_from: Type.String({ format: 'date', description: 'First day (inclusive).' }),
    valid_until: Nullable(Type.String({ format: 'date', description: 'Last day (inclusive); null = open-ended.' })),
    work_shift: Type.Optional(Type.Ref(WorkShift, { description: 'Only with include=work_shift.' })),
    created_at: DateTime(),
    updated_at: DateTime(),
    delete_date: Nullable(DateTime()),
  },
  {
    $id: 'WorkShiftAssignment',
    examples: [
      {
        id: '047ccec8-3259-4625-931e-6d1c87d40a0b',
        employee_id: '12b55511-74b7-4ef6-b593-b3878fcb0519',
        work_shift_id: 'b9445460-3724-4f07-998c-51ed8cfaef8f',
        valid_from: '2023-09-01',
        valid_until: null,
        created_at: '2026-11-02T08:30:00.000Z',
        updated_at: '2026-11-02T08:30:00.000Z',
        delete_date: null,
      },
    ],
  },
);
export type WorkShiftAssignmentView = Static<typeof WorkShiftAssignment>;

const workShiftId = Uuid({ description: 'A live work shift of the PBX.' });
const validUntil = Nullable(Day('Last day (inclusive), on or after valid_from; null = open-ended.'));
export const CreateAssignmentBody = Type.Object(
  { work_shift_id: workShiftId, valid_from: Day('First day (inclusive).'), valid_until: Type.Optional(validUntil) },
  { additionalProperties: false, examples: [{ work_shift_id: '4e6a8c0d-2f1b-4d3e-9a5c-7b9d1f3a5c82', valid_from: '2026-02-01', valid_until: null }] },
);
export const UpdateAssignmentBody = Type.Object(
  { work_shift_id: Type.Optional(workShiftId), valid_from: Type.Optional(Day('First day (inclusive).')), valid_until: Type.Optional(validUntil) },
  { additionalProperties: false, examples: [{ valid_until: '2026-08-31' }] },
);
export type AssignmentInput = Static<typeof UpdateAssignmentBody>;

export const AssignmentParams = Type.Object({ pbx_id: PbxIdParam, assignment: Uuid() });
export const AssignmentInclude = Type.Object({ include: IncludeParam(['work_shift']) });
export const AssignmentListQuery = ListQuery({
  search: false,
  sort: ['valid_from'],
  include: ['work_shift'],
  filters: {
    from: Day('Assignments still valid on or after this day.'),
    to: Day('Assignments starting on or before this day; not before filter[from].'),
    trashed: TrashedFilter,
  },
});
