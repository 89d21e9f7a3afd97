import { presentContractCompany, type CompanyRow } from '../../organisation/index.js';
import { dayAsDateTime } from '../../shared/index.js';
import type { ContractRow } from './contracts.queries.js';
import type { UserCompanyView } from './contracts.schemas.js';

/** A contract as the contract's user company shows it, embedding its `company` (all nulls for none). */
export function presentUserCompany(row: ContractRow, company: CompanyRow | null | undefined): UserCompanyView {
  return {
    id: row.id,
    mxvp_user_id: row.pbx_id,
    ext_id: row.ext_id,
    company_id: row.company_id,
    participation: row.participation,
    contract_start: dayAsDateTime(row.contract_start),
    contract_end: dayAsDateTime(row.contract_end),
    main_company: row.main_company === 1 ? 1 : 0,
    compensatory_balance: row.compensatory_balance,
    ho_balance: row.ho_balance,
    leave_balance: row.leave_balance,
    title: row.title,
    department_id: row.department_id,
    delete_date: row.deleted_at,
    company: presentContractCompany(company),
  };
}
