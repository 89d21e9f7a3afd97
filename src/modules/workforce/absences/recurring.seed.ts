/**
 * The demo's absence types and recurring transactions, made through the services and the real
 * run code (so every rule holds): for every employee with a current contract a yearly paid-leave
 * allotment; a monthly overtime allowance (the sample); a paused monthly home-office allowance; a
 * one-off overtime credit that has run (completed) and a home-office allowance on a contract that
 * does not track home office, whose run failed. Those two are made as of a month ago, so their
 * first run (the start of this month) is due and is run at once.
 */
import type { Principal } from '../../../platform/auth/principal.js';
import type { Clock } from '../../../platform/clock.js';
import type { AppContext } from '../../../platform/context.js';
import type { DemoSeeder } from '../../../platform/demo-seeder.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { AbsenceTypesService } from './absence-types/absence-types.service.js';
import { currentMainContractId, findContract } from '../time/index.js';
import type { LedgerTypeName } from './absences.tables.js';
import { demoOrganisationOf, tenantToday } from '../organisation/index.js';
import { runRecurringTransaction } from './recurring/recurring-run.js';
import { RecurringTransactionsService } from './recurring/recurring-transactions.service.js';
import type { CreateRecurringTransactionInput } from './recurring/recurring-transactions.schemas.js';

const ABSENCE_TYPES: Array<[string, LedgerTypeName]> = [
  ['Annual leave', 'legal'],
  ['Home office', 'home_office'],
  ['Sick leave', 'illness'],
  ['Special leave', 'special'],
  ['Overtime compensation', 'overtime_balance'],
];

/** Far enough back that the next month start after it has passed. */
const A_MONTH_AGO_MS = 32 * 86_400_000;

interface Person {
  employeeId: string;
  userId: string | undefined;
  /** Paid-leave days a year: the company's for the contract's share of full time, in half days. */
  yearlyLeave: number;
  tracksHomeOffice: boolean;
}

async function peopleOf(ctx: AppContext, tenant: Tenant): Promise<Person[]> {
  const today = await tenantToday(ctx, tenant);
  const { employees, companies } = await demoOrganisationOf(ctx.db, tenant);
  const people: Person[] = [];
  for (const employee of employees) {
    const contractId = await currentMainContractId(ctx.db, tenant, employee.id, today);
    const contract = contractId ? await findContract(ctx.db, tenant, contractId) : undefined;
    if (!contract) continue;
    const company = companies.find((row) => row.id === contract.company_id);
    people.push({
      employeeId: employee.id,
      userId: employee.user_id ?? undefined,
      yearlyLeave: Math.round((company?.legal_holidays ?? 0) * (contract.participation ?? 1) * 2) / 2,
      tracksHomeOffice: contract.ho_balance !== null,
    });
  }
  return people;
}

export const seedRecurringTransactions: DemoSeeder = async (ctx, demo) => {
  const tenant: Tenant = { pbxId: demo.pbxId };
  const pbxKey: Principal = { kind: 'pbx', id: 'demo-seed', pbxId: demo.pbxId, rateLimit: null };
  const people = await peopleOf(ctx, tenant);
  const sample = people.find((person) => person.userId === demo.users[1]?.id) ?? people[0];
  const tracked = people.find((person) => person.tracksHomeOffice);
  const untracked = people.find((person) => !person.tracksHomeOffice);
  if (!sample || !tracked || !untracked)
    throw new Error('seedRecurringTransactions: the workforce seeds (organisation, then time) must run first: no employees with current contracts to credit');

  const absenceTypes = new AbsenceTypesService(ctx);
  const typeIds = new Map<LedgerTypeName, string>();
  for (const [name, type] of ABSENCE_TYPES) typeIds.set(type, (await absenceTypes.create(tenant, { name, type })).id);

  const templates = new RecurringTransactionsService(ctx);
  const monthAgo = ctx.clock.nowMs() - A_MONTH_AGO_MS;
  const earlier: Clock = { now: () => new Date(monthAgo), nowMs: () => monthAgo };
  const templatesAMonthAgo = new RecurringTransactionsService({ ...ctx, clock: earlier });
  const create = (service: RecurringTransactionsService, body: CreateRecurringTransactionInput) =>
    service.create(tenant, pbxKey, { absence_type_id: typeIds.get(body.type), ...body });

  for (const person of people.filter((candidate) => candidate.yearlyLeave > 0))
    await create(templates, {
      employee_id: person.employeeId,
      type: 'legal',
      sub_type: 'allotment',
      amount: person.yearlyLeave,
      tr_type: 'credit',
      frequency: 'yearly_start',
      note: 'Annual leave allotment',
    });
  const allowance = await create(templates, {
    employee_id: sample.employeeId,
    type: 'overtime_balance',
    amount: 2,
    tr_type: 'credit',
    frequency: 'monthly_start',
    note: 'Monthly overtime allowance (2 h)',
  });
  const paused = await create(templates, {
    employee_id: tracked.employeeId,
    type: 'home_office',
    amount: 1,
    tr_type: 'credit',
    frequency: 'monthly_start',
    note: 'Monthly home-office day',
  });
  await templates.pause(tenant, paused.id);

  // Made a month ago and run now, through the scheduler's own run.
  const oneOff = await create(templatesAMonthAgo, {
    employee_id: sample.employeeId,
    type: 'overtime_balance',
    sub_type: 'bonus',
    amount: 4,
    tr_type: 'credit',
    frequency: 'monthly_start',
    run_once: true,
    note: 'Inventory weekend: one-off overtime credit',
  });
  const homeOffice = await create(templatesAMonthAgo, {
    employee_id: untracked.employeeId,
    type: 'home_office',
    amount: 1,
    tr_type: 'credit',
    frequency: 'monthly_start',
    note: 'Monthly home-office day (the contract tracks no home-office balance: its run fails)',
  });
  for (const due of [oneOff, homeOffice]) {
    const outcome = await runRecurringTransaction(ctx, { pbxId: tenant.pbxId, templateId: due.id, dueAt: due.next_run_at! });
    if (outcome === 'stale') throw new Error(`seedRecurringTransactions: the run of ${due.id} did not happen`);
  }

  return {
    recurring_transaction: allowance.id,
    recurring_transaction_completed: oneOff.id,
    recurring_transaction_failed: homeOffice.id,
    recurring_transaction_paused: paused.id,
    absence_type: typeIds.get('legal'),
  };
};
