/**
 * The company embedded in every user company (contract) answer.
 * To be replaced by companies/company-view.ts at merge (`presentContractCompany`, `ContractCompanySchema`).
 */
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, Uuid } from '../../../http/schema.js';
import type { CompanyRow } from '../shared/organisation.js';

export const ContractCompanySchema = Type.Object(
  {
    id: Nullable(Uuid()),
    mxvp_user_id: Nullable(Uuid({ description: 'The tenant (PBX).' })),
    company: Nullable(Type.String({ description: 'The company name.' })),
    address: Nullable(Type.String({ description: 'Street, postal code and city joined by spaces.' })),
    country_cc: Nullable(Type.String()),
    legalHolidays: Nullable(Type.Number({ description: 'Legal paid-leave days per year.' })),
    full_time: Nullable(Type.Integer({ description: 'Seconds of a full-time week.' })),
    salary_lu_id: Type.Null({ description: 'Always null.' }),
    overtime_calculation_period_enabled: Nullable(Type.Boolean()),
    overtime_decision_enabled: Nullable(Type.Boolean()),
    delete_date: Nullable(DateTime()),
  },
  { description: 'Always present; every field is null when the contract has no company.' },
);
export type ContractCompany = Static<typeof ContractCompanySchema>;

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

export function presentContractCompany(row: CompanyRow | null | undefined): ContractCompany {
  if (!row) return NO_COMPANY;
  const address = [row.street, row.postal_code, row.city].filter((part): part is string => !!part).join(' ');
  return {
    id: row.id,
    mxvp_user_id: row.pbx_id,
    company: row.name,
    address: address || null,
    country_cc: row.country_cc,
    legalHolidays: row.legal_holidays,
    full_time: row.full_time,
    salary_lu_id: null,
    overtime_calculation_period_enabled: row.overtime_calculation_period_enabled === 1,
    overtime_decision_enabled: row.overtime_decision_enabled === 1,
    delete_date: row.deleted_at,
  };
}
