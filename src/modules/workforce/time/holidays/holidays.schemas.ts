import { Type, type Static } from '@sinclair/typebox';
import { ListQuery } from '../../../../http/list-query.js';
import { DateTime, Nullable, PbxIdParam, StringEnum, Uuid } from '../../../../http/schema.js';
import { Day, TrashedFilter } from '../../shared/index.js';

/** A holiday the tenant adds to the public ones. */
export const TenantHoliday = Type.Object(
  {
    id: Uuid(),
    date: Type.String({ format: 'date', description: 'The day; for a recurring holiday, its first year.' }),
    name: Type.String({ examples: ['Company outing'] }),
    half_day: Type.Boolean({ description: 'Half a day off: halves the required work time of the day.' }),
    recurring: Type.Boolean({ description: 'Every year on the same month and day, from its date on (29 February only in leap years).' }),
    company_id: Nullable(Uuid({ description: 'The company it applies to; null = every company of the PBX.' })),
    created_at: DateTime(),
    updated_at: DateTime(),
    delete_date: Nullable(DateTime()),
  },
  {
    $id: 'TenantHoliday',
    examples: [
      {
        id: 'bb31ecdb-26b4-414e-adef-7729d18b9be9',
        date: '2020-12-24',
        name: 'Christmas Eve (afternoon off)',
        half_day: true,
        recurring: true,
        company_id: null,
        created_at: '2026-11-02T08:30:00.000Z',
        updated_at: '2026-11-02T08:30:00.000Z',
        delete_date: null,
      },
    ],
  },
);
export type TenantHolidayView = Static<typeof TenantHoliday>;

const fields = {
  name: Type.String({ minLength: 1, maxLength: 255 }),
  date: Day('The day (for a recurring holiday, the first year it applies).'),
  half_day: Type.Optional(Type.Boolean({ description: 'Default false.' })),
  recurring: Type.Optional(Type.Boolean({ description: 'Default false.' })),
  company_id: Type.Optional(Nullable(Uuid({ description: 'A live company of the PBX; null or left out = every company.' }))),
};
export const CreateHolidayBody = Type.Object(fields, {
  additionalProperties: false,
  examples: [{ name: 'Schueberfouer (afternoon off)', date: '2026-08-24', half_day: true, recurring: false, company_id: null }],
});
export const UpdateHolidayBody = Type.Object(
  { ...fields, name: Type.Optional(fields.name), date: Type.Optional(fields.date) },
  { additionalProperties: false, examples: [{ name: 'Company day', recurring: true }] },
);
export type HolidayInput = Static<typeof UpdateHolidayBody>;

export const HolidayParams = Type.Object({ pbx_id: PbxIdParam, holiday: Uuid() });
export const HolidayListQuery = ListQuery({
  sort: ['date', 'name'],
  filters: {
    company_id: Uuid({ description: 'Holidays that apply to this company: its own and those for every company.' }),
    recurring: Type.Boolean(),
    trashed: TrashedFilter,
  },
});

/** One day off of a company in the computed calendar. */
export const PublicHoliday = Type.Object(
  {
    date: Type.String({ format: 'date' }),
    name: Type.String({ description: "Public holidays in the country's language, as date-holidays names them." }),
    half_day: Type.Boolean(),
    source: StringEnum(['public', 'tenant'] as const, { description: "public: the country's or region's public holiday; tenant: one the tenant added." }),
  },
  { $id: 'PublicHoliday', examples: [{ date: '2026-06-23', name: 'National Day', half_day: false, source: 'public' }] },
);
export type PublicHolidayView = Static<typeof PublicHoliday>;

export const PublicHolidayQuery = Type.Object({
  'filter[from]': Day('First day of the range.'),
  'filter[to]': Day('Last day of the range (inclusive): at most 366 days counting both ends, not before filter[from].'),
  'filter[company_id]': Uuid({ description: 'A company of the PBX: its country and region decide the public holidays.' }),
});
