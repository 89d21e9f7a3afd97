/**
 * Test-only: the workforce's organisation rows (companies, departments, employees, the user link)
 * written straight into the tables, so the time side can be tested on its own. Each factory takes
 * what it needs and makes nothing else.
 */
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../src/platform/context.js';
import type { Tenant } from '../src/platform/tenancy.js';
import type { CompanyRow } from '../src/modules/workforce/companies/company-view.js';
import type { DepartmentRow } from '../src/modules/workforce/departments/departments.queries.js';
import type { EmployeeRow } from '../src/modules/workforce/shared/employees.js';
import { createAdmin, createKey, createTenant, createUser } from './factories.js';

const now = (ctx: AppContext) => ctx.clock.now().toISOString();

export async function createCompany(
  ctx: AppContext,
  tenant: Tenant,
  fields: Partial<Pick<CompanyRow, 'name' | 'country_cc' | 'region' | 'street' | 'postal_code' | 'city' | 'legal_holidays' | 'full_time'>> = {},
): Promise<CompanyRow> {
  const id = randomUUID();
  await ctx.db
    .insertInto('companies')
    .values({
      id,
      pbx_id: tenant.pbxId,
      name: fields.name ?? `Company ${id.slice(0, 8)}`,
      street: fields.street ?? null,
      postal_code: fields.postal_code ?? null,
      city: fields.city ?? null,
      country_cc: fields.country_cc ?? 'LU',
      region: fields.region ?? null,
      ...(fields.legal_holidays === undefined ? {} : { legal_holidays: fields.legal_holidays }),
      ...(fields.full_time === undefined ? {} : { full_time: fields.full_time }),
      created_at: now(ctx),
      updated_at: now(ctx),
    })
    .execute();
  return ctx.db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function createDepartment(ctx: AppContext, tenant: Tenant, fields: { name?: string; company_id?: string | null } = {}): Promise<DepartmentRow> {
  const id = randomUUID();
  await ctx.db
    .insertInto('departments')
    .values({
      id,
      pbx_id: tenant.pbxId,
      company_id: fields.company_id ?? null,
      name: fields.name ?? `Department ${id.slice(0, 8)}`,
      created_at: now(ctx),
      updated_at: now(ctx),
    })
    .execute();
  return ctx.db.selectFrom('departments').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** An employee; `userId` links that user to it (users.employee_id). */
export async function createEmployee(
  ctx: AppContext,
  tenant: Tenant,
  fields: { first_name?: string; last_name?: string; ext_id?: string | null; userId?: string } = {},
): Promise<EmployeeRow> {
  const id = randomUUID();
  await ctx.db
    .insertInto('employees')
    .values({
      id,
      pbx_id: tenant.pbxId,
      ext_id: fields.ext_id === undefined ? `E-${id.slice(0, 8)}` : fields.ext_id,
      first_name: fields.first_name ?? 'Erika',
      last_name: fields.last_name ?? 'Muster',
      created_at: now(ctx),
      updated_at: now(ctx),
    })
    .execute();
  if (fields.userId) await ctx.db.updateTable('users').set({ employee_id: id }).where('id', '=', fields.userId).execute();
  return ctx.db.selectFrom('employees').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/**
 * The demo plan's organisation for one tenant, as the workforce organisation seed makes it: its
 * companies, departments and employees (linked to the given users by ext_id).
 */
export async function createDemoOrganisation(ctx: AppContext, tenant: Tenant, plan: 'acme' | 'globex', users: Record<string, string> = {}): Promise<void> {
  const organisation =
    plan === 'acme'
      ? {
          companies: [
            {
              name: 'Acme Logistics S.à r.l.',
              country_cc: 'LU',
              region: null,
              street: '12 Rue de la Gare',
              postal_code: 'L-1611',
              city: 'Luxembourg',
              legal_holidays: 26,
            },
            {
              name: 'Acme Logistik GmbH',
              country_cc: 'DE',
              region: 'BY',
              street: 'Leopoldstraße 10',
              postal_code: '80802',
              city: 'München',
              legal_holidays: 30,
            },
          ],
          departments: [
            ['Dispatch', 0],
            ['Customer Service', 0],
            ['Warehouse', 1],
          ] as const,
          employees: [
            ['A-1001', 'Anna', 'Schmit'],
            ['A-1002', 'Luc', 'Weber'],
            ['A-1003', 'Marie', 'Hoffmann'],
            ['A-1004', 'Paul', 'Muller'],
            ['A-1005', 'Sophie', 'Klein'],
            ['A-1006', 'Tom', 'Reuter'],
          ],
        }
      : {
          companies: [
            { name: 'Globex Handels GmbH', country_cc: 'DE', region: 'NW', street: 'Hohe Straße 52', postal_code: '50667', city: 'Köln', legal_holidays: 30 },
          ],
          departments: [
            ['Sales', 0],
            ['Support', 0],
          ] as const,
          employees: [
            ['B-2001', 'Greta', 'Vogel'],
            ['B-2002', 'Jonas', 'Becker'],
            ['B-2003', 'Lena', 'Schneider'],
            ['B-2004', 'Karl', 'Fischer'],
            ['B-2005', 'Nina', 'Wolf'],
          ],
        };
  const companies: CompanyRow[] = [];
  for (const company of organisation.companies) companies.push(await createCompany(ctx, tenant, { ...company, full_time: 144000 }));
  for (const [name, company] of organisation.departments) await createDepartment(ctx, tenant, { name, company_id: companies[company].id });
  for (const [extId, first, last] of organisation.employees)
    await createEmployee(ctx, tenant, { ext_id: extId, first_name: first, last_name: last, userId: users[extId] });
}

/**
 * A tenant ready for the time side: an administrator, a worker and a colleague each linked to an
 * employee, a user without one, the PBX API key, and a Luxembourg company with a department.
 */
export async function createWorkforceTenant(ctx: AppContext) {
  const tenant = await createTenant(ctx);
  const [admin, worker, colleague, outsider] = [
    await createAdmin(ctx, tenant),
    await createUser(ctx, { tenant }),
    await createUser(ctx, { tenant }),
    await createUser(ctx, { tenant }),
  ];
  const pbxKey = await createKey(ctx, tenant, 'pbx');
  const company = await createCompany(ctx, tenant, {
    name: 'Acme Logistics S.à r.l.',
    country_cc: 'LU',
    street: '12 Rue de la Gare',
    postal_code: 'L-1611',
    city: 'Luxembourg',
  });
  const department = await createDepartment(ctx, tenant, { name: 'Dispatch', company_id: company.id });
  const employee = await createEmployee(ctx, tenant, { userId: worker.id, ext_id: `A-${randomUUID().slice(0, 6)}` });
  const colleagueEmployee = await createEmployee(ctx, tenant, { userId: colleague.id });
  return { tenant, admin, worker, colleague, outsider, pbxKey, company, department, employee, colleagueEmployee };
}

/** What `createWorkforceTenant` makes, for the tests that pass it around. */
export type WorkforceSetup = Awaited<ReturnType<typeof createWorkforceTenant>>;
