/**
 * How a company reads: in full for the companies API (`Company`), and in the shape the contract
 * embeds in every user company (`ContractCompanySchema`, `presentContractCompany`), which the
 * contracts of the workforce reuse.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import { DateTime, Nullable, Uuid } from '../../../../http/schema.js';
import type { CompanyTable } from '../organisation.tables.js';

export type CompanyRow = Selectable<CompanyTable>;

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

/** Street, postal code and city joined by single spaces, missing parts left out; null when all are. */
export function companyAddress(row: Pick<CompanyRow, 'street' | 'postal_code' | 'city'>): string | null {
  const address = [row.street, row.postal_code, row.city]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  return address || null;
}

export function presentCompany(row: CompanyRow): CompanyView {
  return {
    id: row.id,
    mxvp_user_id: row.pbx_id,
    company: row.name,
    street: row.street,
    postal_code: row.postal_code,
    city: row.city,
    address: companyAddress(row),
    country_cc: row.country_cc,
    region: row.region,
    legalHolidays: Number(row.legal_holidays),
    full_time: Number(row.full_time),
    salary_lu_id: null,
    overtime_calculation_period_enabled: row.overtime_calculation_period_enabled === 1,
    overtime_decision_enabled: row.overtime_decision_enabled === 1,
    delete_date: row.deleted_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const NO_COMPANY: ContractCompany = {
  id: null,
  mxvp_user_id: null,
  company: null,
  address: null,
  country_cc: null,
  legalHolidays: null,
  full_time: null,
  salary_lu_id: null,
  overtime_calculation_period_enabled: null,
  overtime_decision_enabled: null,
  delete_date: null,
};

/** A user company's `company`: the company (soft-deleted ones show their delete_date), or all nulls for none. */
export function presentContractCompany(row: CompanyRow | null | undefined): ContractCompany {
  if (!row) return { ...NO_COMPANY };
  const company = presentCompany(row);
  return {
    id: company.id,
    mxvp_user_id: company.mxvp_user_id,
    company: company.company,
    address: company.address,
    country_cc: company.country_cc,
    legalHolidays: company.legalHolidays,
    full_time: company.full_time,
    salary_lu_id: null,
    overtime_calculation_period_enabled: company.overtime_calculation_period_enabled,
    overtime_decision_enabled: company.overtime_decision_enabled,
    delete_date: company.delete_date,
  };
}
