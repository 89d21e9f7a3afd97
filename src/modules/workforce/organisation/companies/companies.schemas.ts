import { TrashedFilterParam } from '../../../../http/soft-delete.js';
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, PbxIdParam, Uuid } from '../../../../http/schema.js';
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

/**
 * How a company reads: in full for the companies API (`Company`), and in the shape the contract
 * embeds in every user company (`ContractCompanySchema`), which the contracts of the workforce reuse.
 */
const descriptions = {
  mxvp_user_id: 'The tenant: the PBX the company belongs to.',
  company: 'The company name.',
  address: 'Street, postal code and city joined by single spaces (missing parts left out); null when none is known.',
  country_cc: 'ISO 3166-1 alpha-2 country of the company: its public holidays.',
  legalHolidays: 'Legal paid-leave days per year (in half days).',
  full_time: 'Seconds of work in a full-time WEEK (144000 = 40 h); a contract\u2019s participation scales it.',
  salary_lu_id: 'Always null (kept for the contract).',
  overtime_calculation_period_enabled: 'Overtime is computed over a calculation period rather than per day.',
  overtime_decision_enabled: 'Overtime needs a decision (approval) before it counts.',
  delete_date: 'When the company was soft-deleted; null while it is live.',
};

export const Company = Type.Object(
  {
    id: Uuid(),
    mxvp_user_id: Uuid({ description: descriptions.mxvp_user_id }),
    company: Type.String({ description: descriptions.company, examples: ['Acme Logistics S.\u00e0 r.l.'] }),
    street: Nullable(Type.String()),
    postal_code: Nullable(Type.String()),
    city: Nullable(Type.String()),
    address: Nullable(Type.String({ description: descriptions.address, examples: ['12 Rue de la Gare L-1611 Luxembourg'] })),
    country_cc: Type.String({ description: descriptions.country_cc, examples: ['LU'] }),
    region: Nullable(Type.String({ description: 'Region (state) of the country for regional public holidays, e.g. BY; null for none.', examples: ['BY'] })),
    legalHolidays: Type.Number({ description: descriptions.legalHolidays, examples: [26] }),
    full_time: Type.Integer({ description: descriptions.full_time, examples: [144000] }),
    salary_lu_id: Type.Null({ description: descriptions.salary_lu_id }),
    overtime_calculation_period_enabled: Type.Boolean({ description: descriptions.overtime_calculation_period_enabled }),
    overtime_decision_enabled: Type.Boolean({ description: descriptions.overtime_decision_enabled }),
    delete_date: Nullable(DateTime({ description: descriptions.delete_date })),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  {
    $id: 'Company',
    examples: [
      {
        id: 'b435c132-499f-4e72-b6ad-be0003a1867b',
        mxvp_user_id: '5b434841-6826-4eb7-9e1e-52f33261ad31',
        company: 'Acme Logistics S.à r.l.',
        street: '12 Rue de la Gare',
        postal_code: 'L-1611',
        city: 'Luxembourg',
        address: '12 Rue de la Gare L-1611 Luxembourg',
        country_cc: 'LU',
        region: null,
        legalHolidays: 26,
        full_time: 144000,
        salary_lu_id: null,
        overtime_calculation_period_enabled: false,
        overtime_decision_enabled: false,
        delete_date: null,
        created_at: '2026-11-02T08:30:00.000Z',
        updated_at: '2026-11-02T08:30:00.000Z',
      },
    ],
  },
);
export type CompanyView = Static<typeof Company>;

/**
 * The contract's `company` object of a user company: always present, every scalar null when the
 * contract names no company. No `$id`: it is embedded in each contract.
 */
export const ContractCompanySchema = Type.Object(
  {
    id: Nullable(Uuid()),
    mxvp_user_id: Nullable(Uuid({ description: descriptions.mxvp_user_id })),
    company: Nullable(Type.String({ description: descriptions.company })),
    address: Nullable(Type.String({ description: descriptions.address })),
    country_cc: Nullable(Type.String({ description: descriptions.country_cc })),
    legalHolidays: Nullable(Type.Number({ description: descriptions.legalHolidays })),
    full_time: Nullable(Type.Integer({ description: descriptions.full_time })),
    salary_lu_id: Type.Null({ description: descriptions.salary_lu_id }),
    overtime_calculation_period_enabled: Nullable(Type.Boolean({ description: descriptions.overtime_calculation_period_enabled })),
    overtime_decision_enabled: Nullable(Type.Boolean({ description: descriptions.overtime_decision_enabled })),
    delete_date: Nullable(DateTime({ description: descriptions.delete_date })),
  },
  { description: 'The contract\u2019s company; every field null when the contract names none.' },
);
export type ContractCompany = Static<typeof ContractCompanySchema>;
