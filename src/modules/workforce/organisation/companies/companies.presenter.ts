/** A company as the companies API shows it, and as the contract embeds it in a user company. */
import type { CompanyRow } from './companies.queries.js';
import type { CompanyView, ContractCompany } from './companies.schemas.js';

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
