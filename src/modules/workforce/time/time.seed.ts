/**
 * The time side of the workforce demo: work shifts, contracts, assignments and the tenant's own
 * holidays, hung on the organisation (companies, departments, employees) the workforce's
 * organisation seeder creates first. People are found by ext_id, companies and departments by
 * name; a missing one stops the seed with an error naming it.
 */
import type { AppContext } from '../../../platform/context.js';
import type { DemoSeeder } from '../../../platform/demo-seeder.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { ContractsService } from './contracts/contracts.service.js';
import { HolidaysService } from './holidays/holidays.service.js';
import { todayIn, yearOf, addDays, isoWeekday, type CalendarDay } from '../shared/index.js';
import { demoOrganisationOf } from '../organisation/index.js';
import { WorkShiftAssignmentsService } from './work-shifts/work-shift-assignments.service.js';
import { WorkShiftsService } from './work-shifts/work-shifts.service.js';

type ShiftName = 'Full time 40 h' | 'Part time 50 %' | 'Part time 3 days';

const SHIFTS: Record<ShiftName, Partial<Record<'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday', number>>> = {
  'Full time 40 h': { monday: 28800, tuesday: 28800, wednesday: 28800, thursday: 28800, friday: 28800 },
  'Part time 50 %': { monday: 14400, tuesday: 14400, wednesday: 14400, thursday: 14400, friday: 14400 },
  'Part time 3 days': { monday: 28800, tuesday: 28800, wednesday: 28800 },
};

interface ContractPlan {
  company: string;
  department: string;
  start: CalendarDay;
  /** Last day; null = open-ended. */
  end: CalendarDay | null;
  participation: number;
  title: string;
  main?: boolean;
  compensatory?: number;
  homeOffice?: number | null;
}

interface PersonPlan {
  extId: string;
  shift: ShiftName;
  contracts: ContractPlan[];
}

interface TenantTimePlan {
  people: PersonPlan[];
  /** The recurring half day for every company, and a company's full-day event. */
  halfDay: { date: CalendarDay; name: string };
  event: { company: string; name: string };
}

/** Relative dates are computed from the seed's clock: "last year" is the year before the tenant's today. */
function plans(thisYear: number): Record<string, TenantTimePlan> {
  const endedLastSummer = `${thisYear - 1}-06-30`;
  const lu = 'Acme Logistics S.à r.l.';
  const de = 'Acme Logistik GmbH';
  const globex = 'Globex Handels GmbH';
  return {
    'Acme Logistics S.à r.l.': {
      people: [
        {
          extId: 'A-1001',
          shift: 'Full time 40 h',
          contracts: [
            {
              company: lu,
              department: 'Dispatch',
              start: '2021-03-01',
              end: null,
              participation: 1,
              title: 'Operations Manager',
              main: true,
              homeOffice: 20,
            },
          ],
        },
        {
          extId: 'A-1002',
          shift: 'Part time 50 %',
          contracts: [
            {
              company: lu,
              department: 'Customer Service',
              start: '2023-09-01',
              end: null,
              participation: 0.5,
              title: 'Customer Service Agent',
              main: true,
              compensatory: 5400,
              homeOffice: 10,
            },
          ],
        },
        {
          extId: 'A-1003',
          shift: 'Full time 40 h',
          contracts: [
            { company: de, department: 'Warehouse', start: '2022-01-01', end: '2024-12-31', participation: 1, title: 'Warehouse Coordinator' },
            { company: lu, department: 'Dispatch', start: '2025-01-01', end: null, participation: 1, title: 'Dispatcher', main: true },
          ],
        },
        {
          extId: 'A-1004',
          shift: 'Full time 40 h',
          contracts: [{ company: lu, department: 'Dispatch', start: '2019-05-01', end: endedLastSummer, participation: 1, title: 'Driver', main: true }],
        },
        {
          extId: 'A-1005',
          shift: 'Full time 40 h',
          contracts: [{ company: de, department: 'Warehouse', start: '2024-04-01', end: null, participation: 1, title: 'Warehouse Operative', main: true }],
        },
        {
          extId: 'A-1006',
          shift: 'Part time 3 days',
          contracts: [
            {
              company: lu,
              department: 'Customer Service',
              start: '2024-09-01',
              end: null,
              participation: 0.6,
              title: 'Customer Service Agent',
              main: true,
            },
          ],
        },
      ],
      halfDay: { date: '2020-12-24', name: 'Christmas Eve (afternoon off)' },
      event: { company: lu, name: 'Company outing' },
    },
    'Globex Handels GmbH': {
      people: [
        {
          extId: 'B-2001',
          shift: 'Full time 40 h',
          contracts: [
            {
              company: globex,
              department: 'Sales',
              start: '2020-01-01',
              end: null,
              participation: 1,
              title: 'Head of Sales',
              main: true,
              homeOffice: 20,
            },
          ],
        },
        {
          extId: 'B-2002',
          shift: 'Part time 50 %',
          contracts: [
            {
              company: globex,
              department: 'Support',
              start: '2023-09-01',
              end: null,
              participation: 0.5,
              title: 'Support Agent',
              main: true,
              compensatory: 3600,
            },
          ],
        },
        {
          extId: 'B-2003',
          shift: 'Full time 40 h',
          contracts: [
            { company: globex, department: 'Sales', start: '2021-06-01', end: '2024-12-31', participation: 1, title: 'Sales Representative' },
            { company: globex, department: 'Support', start: '2025-01-01', end: null, participation: 1, title: 'Support Lead', main: true },
          ],
        },
        {
          extId: 'B-2004',
          shift: 'Full time 40 h',
          contracts: [
            { company: globex, department: 'Support', start: '2019-01-01', end: endedLastSummer, participation: 1, title: 'Support Agent', main: true },
          ],
        },
        {
          extId: 'B-2005',
          shift: 'Part time 3 days',
          contracts: [{ company: globex, department: 'Sales', start: '2024-02-01', end: null, participation: 0.6, title: 'Sales Assistant', main: true }],
        },
      ],
      halfDay: { date: '2020-12-24', name: 'Heiligabend (Nachmittag frei)' },
      event: { company: globex, name: 'Betriebsausflug' },
    },
  };
}

/**
 * The paid-leave days a running contract starts the demo with: last year's and this year's
 * allotment (the company's yearly days for its share of full time, in half days), since the
 * absence seed takes leave over both years; an ended contract was settled when it ended. The
 * yearly credit itself is the recurring transactions' (issue #15).
 */
function leaveBalance(contract: ContractPlan, legalHolidays: number, today: CalendarDay): number {
  if (contract.end !== null && contract.end < today) return 0;
  return 2 * (Math.round(legalHolidays * contract.participation * 2) / 2);
}

/** The second Friday of September of `year`: the company event's day. */
function secondFridayOfSeptember(year: number): CalendarDay {
  let day = `${year}-09-01`;
  while (isoWeekday(day) !== 5) day = addDays(day, 1);
  return addDays(day, 7);
}

async function lookUp(ctx: AppContext, tenant: Tenant) {
  const { employees, companies, departments } = await demoOrganisationOf(ctx.db, tenant);
  const missing = (what: string) =>
    new Error(`seedWorkforceTime: the tenant has no ${what}; the workforce organisation seed (companies, departments, employees) must run first`);
  return {
    employee(extId: string): string {
      const id = employees.find((row) => row.ext_id === extId)?.id;
      if (!id) throw missing(`employee with ext_id ${extId}`);
      return id;
    },
    company(name: string): { id: string; legalHolidays: number } {
      const row = companies.find((company) => company.name === name);
      if (!row) throw missing(`company named ${name}`);
      return { id: row.id, legalHolidays: row.legal_holidays };
    },
    department(name: string, companyId: string): string {
      const id = departments.find((row) => row.name === name && (row.company_id === companyId || row.company_id === null))?.id;
      if (!id) throw missing(`department named ${name}`);
      return id;
    },
  };
}

/** The demo's work shifts, contracts, assignments and holidays, for the two demo tenants. */
export const seedWorkforceTime: DemoSeeder = async (ctx, demo) => {
  const tenant: Tenant = { pbxId: demo.pbxId };
  const pbx = await ctx.db.selectFrom('pbxes').select(['name', 'timezone']).where('id', '=', demo.pbxId).executeTakeFirstOrThrow();
  const today = todayIn(pbx.timezone, ctx.clock);
  const thisYear = yearOf(today);
  const plan = plans(thisYear)[pbx.name];
  if (!plan) throw new Error(`seedWorkforceTime: no workforce plan for the demo tenant ${pbx.name}`);
  // Every person, company and department is found before anything is written.
  const find = await lookUp(ctx, tenant);
  const people = plan.people.map((person) => ({
    ...person,
    employeeId: find.employee(person.extId),
    contracts: person.contracts.map((contract) => {
      const company = find.company(contract.company);
      return {
        ...contract,
        companyId: company.id,
        departmentId: find.department(contract.department, company.id),
        leaveBalance: leaveBalance(contract, company.legalHolidays, today),
      };
    }),
  }));
  const eventCompanyId = find.company(plan.event.company).id;

  const shiftsService = new WorkShiftsService(ctx);
  const shiftIds = {} as Record<ShiftName, string>;
  for (const [name, days] of Object.entries(SHIFTS) as Array<[ShiftName, (typeof SHIFTS)[ShiftName]]>)
    shiftIds[name] = (await shiftsService.create(tenant, { name, ...days })).id;

  const contracts = new ContractsService(ctx);
  const assignments = new WorkShiftAssignmentsService(ctx);
  const byExtId = new Map<string, { contract: string; assignment: string }>();
  for (const person of people) {
    let mainContract = '';
    for (const contract of person.contracts) {
      const created = await contracts.create(tenant, person.employeeId, {
        company_id: contract.companyId,
        department_id: contract.departmentId,
        participation: contract.participation,
        contract_start: contract.start,
        contract_end: contract.end,
        main_company: contract.main ?? false,
        compensatory_balance: contract.compensatory ?? 0,
        ho_balance: contract.homeOffice ?? null,
        leave_balance: contract.leaveBalance,
        title: contract.title,
      });
      if (contract.main) mainContract = created.id;
    }
    // One assignment over the whole employment: from the first contract's start to the last one's end.
    const last = person.contracts[person.contracts.length - 1];
    const assignment = await assignments.create(tenant, person.employeeId, {
      work_shift_id: shiftIds[person.shift],
      valid_from: person.contracts[0].start,
      valid_until: last.end,
    });
    byExtId.set(person.extId, { contract: mainContract, assignment: assignment.id });
  }

  const holidays = new HolidaysService(ctx);
  const halfDay = await holidays.create(tenant, { date: plan.halfDay.date, name: plan.halfDay.name, half_day: true, recurring: true, company_id: null });
  await holidays.create(tenant, { date: secondFridayOfSeptember(thisYear), name: plan.event.name, company_id: eventCompanyId });

  // The part-timer (Luc, Jonas): the user a demo login sees first.
  const sample = byExtId.get(plan.people[1].extId)!;
  return { contract: sample.contract, work_shift: shiftIds['Full time 40 h'], work_shift_assignment: sample.assignment, holiday: halfDay.id };
};
