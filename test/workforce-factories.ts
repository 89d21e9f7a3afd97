/**
 * Test-only: workforce tenants for the time side (its organisation made by the factories of
 * ./factories.ts, which this file passes on for the tests that import them from here).
 */
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../src/platform/context.js';
import type { Tenant } from '../src/platform/tenancy.js';
import type { CompanyRow } from '../src/modules/workforce/organisation/companies/companies.queries.js';
import { createAdmin, createCompany, createDepartment, createEmployee, createKey, createTenant, createUser } from './factories.js';

export { createCompany, createDepartment, createEmployee };

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
