import type { Executor } from '../../../db/database.js';
import type { DemoSeeder } from '../../../platform/demo-seeder.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { CreateCompanyInput } from './companies/companies.schemas.js';
import { CompaniesService } from './companies/companies.service.js';
import { DepartmentsService } from './departments/departments.service.js';
import { userIdsByEmail } from './employees/employees.queries.js';
import { EmployeesService } from './employees/employees.service.js';

interface OrganisationPlan {
  companies: CreateCompanyInput[];
  /** Department name, the name of its company, and the ext_ids of its validators in order (the head first). */
  departments: Array<[string, string, string[]]>;
  /** ext_id, first and last name, and the local part of the linked user's e-mail (null: no user). */
  employees: Array<[string, string, string, string | null]>;
  /** Which rows the seed JSON publishes under `samples`. */
  samples: { company: string; department: string; employee: string };
}

/**
 * The organisation of each demo tenant, keyed by the demo e-mail domain. The ext_ids are how the
 * other workforce seeds (contracts, shifts) find these people.
 */
const PLANS: Record<string, OrganisationPlan> = {
  'acme.example': {
    companies: [
      {
        company: 'Acme Logistics S.\u00e0 r.l.',
        street: '12 Rue de la Gare',
        postal_code: 'L-1611',
        city: 'Luxembourg',
        country_cc: 'LU',
        region: null,
        full_time: 144000,
        legalHolidays: 26,
      },
      {
        company: 'Acme Logistik GmbH',
        street: 'Leopoldstra\u00dfe 10',
        postal_code: '80802',
        city: 'M\u00fcnchen',
        country_cc: 'DE',
        region: 'BY',
        full_time: 144000,
        legalHolidays: 30,
      },
    ],
    departments: [
      // Anna, the operations manager, heads Dispatch and Customer Service; Marie, who coordinated the warehouse, decides there.
      ['Dispatch', 'Acme Logistics S.\u00e0 r.l.', ['A-1001']],
      ['Customer Service', 'Acme Logistics S.\u00e0 r.l.', ['A-1001']],
      ['Warehouse', 'Acme Logistik GmbH', ['A-1003']],
    ],
    employees: [
      ['A-1001', 'Anna', 'Schmit', 'anna.schmit'],
      ['A-1002', 'Luc', 'Weber', 'luc.weber'],
      ['A-1003', 'Marie', 'Hoffmann', 'marie.hoffmann'],
      ['A-1004', 'Paul', 'Muller', 'paul.muller'],
      ['A-1005', 'Sophie', 'Klein', null],
      ['A-1006', 'Tom', 'Reuter', null],
    ],
    samples: { company: 'Acme Logistics S.\u00e0 r.l.', department: 'Dispatch', employee: 'A-1002' },
  },
  'globex.example': {
    companies: [
      {
        company: 'Globex Handels GmbH',
        street: 'Hohe Stra\u00dfe 52',
        postal_code: '50667',
        city: 'K\u00f6ln',
        country_cc: 'DE',
        region: 'NW',
        full_time: 144000,
        legalHolidays: 30,
      },
    ],
    departments: [
      // Greta heads Sales; Support has two: Lena, its lead, then Greta.
      ['Sales', 'Globex Handels GmbH', ['B-2001']],
      ['Support', 'Globex Handels GmbH', ['B-2003', 'B-2001']],
    ],
    employees: [
      ['B-2001', 'Greta', 'Vogel', 'greta.vogel'],
      ['B-2002', 'Jonas', 'Becker', 'jonas.becker'],
      ['B-2003', 'Lena', 'Schneider', 'lena.schneider'],
      ['B-2004', 'Karl', 'Fischer', 'karl.fischer'],
      ['B-2005', 'Nina', 'Wolf', null],
    ],
    samples: { company: 'Globex Handels GmbH', department: 'Sales', employee: 'B-2002' },
  },
};

/**
 * Companies, employees and departments (with their validators) of a demo tenant, created through the services the API
 * uses, each demo user (the disabled one too) linked to its employee. A tenant outside the plan
 * gets none.
 */
export const seedOrganisation: DemoSeeder = async (ctx, demo) => {
  const domain = demo.admin.email.split('@')[1] ?? '';
  const plan = PLANS[domain];
  if (!plan) return {};
  const tenant = { pbxId: demo.pbxId };

  const companies = new CompaniesService(ctx);
  const companyIds = new Map<string, string>();
  for (const company of plan.companies) companyIds.set(company.company, (await companies.create(tenant, company)).id);

  const employees = new EmployeesService(ctx);
  const order = await employees.nameOrder(tenant);
  const users = await userIdsByEmail(
    ctx.db,
    tenant,
    plan.employees.flatMap(([, , , user]) => (user ? [`${user}@${domain}`] : [])),
  );
  const employeeIds = new Map<string, string>();
  for (const [extId, firstName, lastName, user] of plan.employees) {
    const userId = user ? (users.get(`${user}@${domain}`) ?? null) : null;
    const employee = await employees.create(tenant, order, { ext_id: extId, first_name: firstName, last_name: lastName, user_id: userId });
    employeeIds.set(extId, employee.id);
  }

  // Departments come after the people, who are their validators.
  const departments = new DepartmentsService(ctx);
  const departmentIds = new Map<string, string>();
  for (const [name, company, validators] of plan.departments) {
    const validatorIds = validators.map((extId) => {
      const id = employeeIds.get(extId);
      if (!id) throw new Error(`seedOrganisation: no employee ${extId} to validate ${name}`);
      return id;
    });
    departmentIds.set(name, (await departments.create(tenant, { name, company_id: companyIds.get(company) ?? null, validator_ids: validatorIds })).id);
  }

  return {
    company: companyIds.get(plan.samples.company),
    department: departmentIds.get(plan.samples.department),
    employee: employeeIds.get(plan.samples.employee),
  };
};

/**
 * The tenant's live organisation as the later workforce seeds find it (time by ext_id and name,
 * absences and recurring transactions every employee in ext_id order, schedules the first company
 * by name): employees with their linked user, companies, departments.
 */
export async function demoOrganisationOf(db: Executor, tenant: Tenant) {
  const [employees, companies, departments] = await Promise.all([
    db
      .selectFrom('employees')
      .leftJoin('users', (join) => join.onRef('users.employee_id', '=', 'employees.id').on('users.deleted_at', 'is', null))
      .select(['employees.id', 'employees.ext_id', 'users.id as user_id'])
      .where('employees.pbx_id', '=', tenant.pbxId)
      .where('employees.deleted_at', 'is', null)
      .orderBy('employees.ext_id')
      .orderBy('employees.id')
      .execute(),
    db
      .selectFrom('companies')
      .select(['id', 'name', 'legal_holidays'])
      .where('pbx_id', '=', tenant.pbxId)
      .where('deleted_at', 'is', null)
      .orderBy('name')
      .orderBy('id')
      .execute(),
    db.selectFrom('departments').select(['id', 'name', 'company_id']).where('pbx_id', '=', tenant.pbxId).where('deleted_at', 'is', null).execute(),
  ]);
  return { employees, companies, departments };
}
