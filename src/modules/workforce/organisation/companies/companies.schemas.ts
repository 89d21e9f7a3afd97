import { TrashedFilterParam } from '../../../../http/soft-delete.js';
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, PbxIdParam, Uuid } from '../../../../http/schema.js';
import { ListQuery } from '../../../../http/list-query.js';

const text = (maxLength: number, description?: string) => Nullable(Type.String({ maxLength, ...(description ? { description } : {}) }));

const Fields = Type.Object({
  company: Type.String({ minLength: 1, maxLength: 255, description: 'The company name.' }),
  street: text(255),
  postal_code: text(32),
  city: text(255),
  country_cc: Type.String({
    pattern: '^[A-Za-z]{2}$',
    description: 'ISO 3166-1 alpha-2 (any case, stored upper case); one of the countries whose public holidays are known (date-holidays).',
    examples: ['LU'],
  }),
  region: Nullable(
    Type.String({
      pattern: '^[A-Za-z0-9]{1,16}$',
      description: 'A region (state) of the country with its own public holidays, e.g. BY for Bavaria; null for none. Checked against the country.',
      examples: ['BY'],
    }),
  ),
  legalHolidays: Type.Number({ minimum: 0, maximum: 366, multipleOf: 0.5, description: 'Legal paid-leave days per year, in half days.', examples: [26] }),
  full_time: Type.Integer({
    minimum: 1,
    maximum: 604800,
    description: 'Seconds of work in a full-time WEEK (144000 = 40 h; at most 7 x 24 h).',
    examples: [144000],
  }),
  overtime_calculation_period_enabled: Type.Boolean(),
  overtime_decision_enabled: Type.Boolean(),
});

/** Create: name and country required; legalHolidays 26, full_time 144000 and both overtime flags false by default. */
export const CreateCompanyBody = Type.Composite([Type.Pick(Fields, ['company', 'country_cc']), Type.Partial(Type.Omit(Fields, ['company', 'country_cc']))], {
  additionalProperties: false,
  examples: [
    {
      company: 'Acme Luxembourg S.A.',
      street: '12, rue Alphonse Weicker',
      postal_code: 'L-2721',
      city: 'Luxembourg',
      country_cc: 'LU',
      region: null,
      legalHolidays: 26,
      full_time: 144000,
      overtime_calculation_period_enabled: false,
      overtime_decision_enabled: true,
    },
  ],
});
/** PATCH: only the fields sent change; read-only fields (id, address, salary_lu_id, ...) are refused. */
export const UpdateCompanyBody = Type.Partial(Fields, {
  additionalProperties: false,
  examples: [{ street: '4, rue de l’Industrie', postal_code: 'L-8069', city: 'Bertrange', legalHolidays: 27.5 }],
});
export type CreateCompanyInput = Static<typeof CreateCompanyBody>;
export type UpdateCompanyInput = Static<typeof UpdateCompanyBody>;

export const CompaniesParams = Type.Object({ pbx_id: PbxIdParam });
export const CompanyParams = Type.Object({ pbx_id: PbxIdParam, company: Uuid({ description: 'company id (UUID)' }) });

/** Sort names as the answer spells them; `company` is the name. */
export const COMPANY_SORTS = ['company', 'city', 'country_cc', 'created_at', 'updated_at'] as const;
export const CompanyListQuery = ListQuery({
  sort: COMPANY_SORTS,
  filters: {
    country_cc: Type.String({ pattern: '^[A-Za-z]{2}$', description: 'Companies of this country (ISO alpha-2, any case).' }),
    trashed: TrashedFilterParam('companies'),
  },
});
export type CompanyListQueryT = Static<typeof CompanyListQuery>;
