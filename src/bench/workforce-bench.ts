/**
 * The workforce's reads at a realistic size: a tenant of 2,000 employees, each with an ended and a
 * current contract and a work shift assignment, then `GET …/user-companies` (an administrator
 * reading one employee's contracts) and `GET …/required-work-time` over 100 days (the employee
 * itself), each measured against the bare server in alternating runs, as the endpoint scenarios
 * are; then the absence approve (approve-bench.ts: its rate and its SQL statements). Plugged into `npm run bench` as an optional step (OPTIONAL_STEP_MODULES in scenarios.ts).
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../db/database.js';
import { openDatabase } from '../db/database.js';
import type { DB } from '../db/schema.js';
import { benchApprove } from './approve-bench.js';
import { startBaselineServer } from './baseline.js';
import { compareWithBaseline } from './compare.js';
import type { StepContext, StepFigures } from './scenarios.js';
import { round } from './stats.js';
import { startApiServer } from './server-process.js';

export const WORKFORCE_BENCH_EMPLOYEES = 2_000;
/** 100 days, both ends counted: the contract's longest required-work-time range. */
const RANGE = { from: '2026-01-05', to: '2026-04-14' };
const CHUNK = 200;

export interface Seeded {
  /** The employee whose contracts the administrator reads. */
  listedEmployeeId: string;
  /** The employee the demo user is linked to (its own, or one linked here). */
  ownEmployeeId: string;
  /** The bench's company and department, and its employees in order (other steps add rows for them). */
  companyId: string;
  departmentId: string;
  employeeIds: string[];
}

/** Writes rows a chunk at a time (SQLite caps the parameters of one statement). */
export async function inChunks<T>(rows: T[], write: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await write(rows.slice(i, i + CHUNK));
}

/**
 * The tenant's organisation at size, written straight into the tables: a Luxembourg company, a
 * department, a 40-hour work shift and a recurring half-day holiday; 2,000 employees, each with a
 * contract that ended on 31 December 2023 and a current one, and the work shift since 2022. The
 * demo user is linked to the first of them unless the demo seed already linked it.
 */
export async function seedWorkforce(
  db: Kysely<DB>,
  dialect: DialectName,
  pbxId: string,
  userId: string,
  employees = WORKFORCE_BENCH_EMPLOYEES,
): Promise<Seeded> {
  const now = new Date().toISOString();
  const stamp = { created_at: now, updated_at: now };
  const companyId = randomUUID();
  const departmentId = randomUUID();
  const shiftId = randomUUID();
  await db
    .insertInto('companies')
    .values({
      id: companyId,
      pbx_id: pbxId,
      name: 'Bench Logistics S.A.',
      street: '1 Rue du Banc',
      postal_code: 'L-1234',
      city: 'Luxembourg',
      country_cc: 'LU',
      region: null,
      ...stamp,
    })
    .execute();
  await db
    .insertInto('departments')
    .values({ id: departmentId, pbx_id: pbxId, company_id: companyId, name: 'Bench', ...stamp })
    .execute();
  const week = { monday: 28800, tuesday: 28800, wednesday: 28800, thursday: 28800, friday: 28800 };
  await db
    .insertInto('work_shifts')
    .values({ id: shiftId, pbx_id: pbxId, name: `Bench 40 h ${shiftId.slice(0, 8)}`, ...week, ...stamp })
    .execute();
  await db
    .insertInto('tenant_holidays')
    .values({ id: randomUUID(), pbx_id: pbxId, company_id: companyId, date: '2020-03-02', name: 'Bench half day', half_day: 1, recurring: 1, ...stamp })
    .execute();

  const ids = Array.from({ length: employees }, () => randomUUID());
  await inChunks(
    ids.map((id, i) => ({ id, pbx_id: pbxId, ext_id: `BENCH-${String(i).padStart(5, '0')}`, first_name: `First ${i}`, last_name: `Last ${i}`, ...stamp })),
    (chunk) => db.insertInto('employees').values(chunk).execute(),
  );
  const contract = (employeeId: string, start: string, end: string | null, main: number) => ({
    id: randomUUID(),
    pbx_id: pbxId,
    employee_id: employeeId,
    company_id: companyId,
    department_id: departmentId,
    participation: 1,
    contract_start: start,
    contract_end: end,
    main_company: main,
    compensatory_balance: 0,
    ho_balance: null,
    title: 'Bench worker',
    ...stamp,
  });
  await inChunks(
    ids.flatMap((id) => [contract(id, '2022-01-01', '2023-12-31', 0), contract(id, '2024-01-01', null, 1)]),
    (chunk) => db.insertInto('employee_contracts').values(chunk).execute(),
  );
  await inChunks(
    ids.map((id) => ({ id: randomUUID(), pbx_id: pbxId, employee_id: id, work_shift_id: shiftId, valid_from: '2022-01-01', valid_until: null, ...stamp })),
    (chunk) => db.insertInto('work_shift_assignments').values(chunk).execute(),
  );

  const user = await db.selectFrom('users').select('employee_id').where('id', '=', userId).executeTakeFirstOrThrow();
  let ownEmployeeId = user.employee_id;
  if (!ownEmployeeId) {
    ownEmployeeId = ids[0];
    await db.updateTable('users').set({ employee_id: ownEmployeeId }).where('id', '=', userId).execute();
  }
  // Fresh statistics, as a database that has been running would have: PostgreSQL otherwise plans
  // for the empty tables it last analysed (an employee by id through the name index, 1 ms).
  await (dialect === 'postgres' ? sql`analyze employees, employee_contracts, work_shift_assignments, users` : sql`analyze`).execute(db);
  return { listedEmployeeId: ids[Math.floor(employees / 2)], ownEmployeeId, companyId, departmentId, employeeIds: ids };
}

type BenchTenant = Awaited<ReturnType<typeof startApiServer>>['seed']['tenants'][number];

/** What a workforce step measures with: its API server with a seeded tenant, and the bare server beside it. */
export interface WorkforceBench<S> {
  server: Awaited<ReturnType<typeof startApiServer>>;
  baselineUrl: string;
  tenant: BenchTenant;
  /** A demo user of the tenant who is not its administrator. */
  member: BenchTenant['users'][number];
  seeded: S;
  seedSeconds: number;
}

/**
 * Starts a workforce step's own API server (no job worker, no AMI) and bare server, seeds the
 * first demo tenant straight into the database with `seed`, runs `measure`, and stops both.
 */
export async function withWorkforceBench<S>(
  ctx: StepContext,
  seed: (db: Kysely<DB>, dialect: DialectName, pbxId: string, memberId: string) => Promise<S>,
  measure: (bench: WorkforceBench<S>) => Promise<StepFigures>,
): Promise<StepFigures> {
  const postgresUrl = ctx.server.dialect === 'postgres' ? ctx.config.postgresUrl : null;
  const server = await startApiServer({
    postgresUrl,
    cpu: ctx.config.serverCpu,
    env: { JOB_WORKER: 'false', AMI_EVENTS: 'false' },
    nodeArgs: ctx.config.serverNodeArgs,
  });
  const baseline = await startBaselineServer({ bodyBytes: 2048, cpu: ctx.config.serverCpu });
  try {
    const tenant = server.seed.tenants[0];
    const member = tenant.users.find((user) => user.id !== tenant.admin.id);
    if (!member) throw new Error('the demo seed has no non-admin user');
    const database = openDatabase({ url: server.env.DATABASE_URL, sqlitePath: server.env.SQLITE_PATH, poolSize: 2 });
    const started = performance.now();
    let seeded: S;
    try {
      seeded = await seed(database.db, database.dialect, tenant.pbx_id, member.id);
    } finally {
      await database.close();
    }
    return await measure({ server, baselineUrl: baseline.url, tenant, member, seeded, seedSeconds: (performance.now() - started) / 1000 });
  } finally {
    await baseline.stop();
    await server.stop();
  }
}

/** Pending requests the step approves (one per employee, over the step's connections). */
const APPROVALS = 400;

/** The benchmark step: its own server and bare server, 2,000 employees, the two reads against the bare server, then the approve. */
export async function benchWorkforce(ctx: StepContext): Promise<StepFigures> {
  return withWorkforceBench(ctx, seedWorkforce, async ({ server, baselineUrl, tenant, member, seeded, seedSeconds }) => {
    ctx.log(`seeded ${WORKFORCE_BENCH_EMPLOYEES.toLocaleString('en')} employees with contracts and assignments in ${seedSeconds.toFixed(1)} s`);

    const adminToken = await server.login(tenant.admin.email, tenant.admin.password);
    const userToken = await server.login(member.email, member.password);
    const base = `${server.apiBase}/${tenant.pbx_id}/user`;
    const targets = [
      {
        id: 'user_companies',
        label: `GET /{pbx_id}/user/{employee_id}/user-companies?per_page=15 (admin, ${WORKFORCE_BENCH_EMPLOYEES} employees)`,
        request: { url: `${base}/${seeded.listedEmployeeId}/user-companies?per_page=15`, headers: { authorization: `Bearer ${adminToken}` } },
      },
      {
        id: 'required_work_time_100d',
        label: 'GET /{pbx_id}/user/{employee_id}/required-work-time, 100 days (the employee)',
        request: {
          url: `${base}/${seeded.ownEmployeeId}/required-work-time?filter[from]=${RANGE.from}&filter[to]=${RANGE.to}`,
          headers: { authorization: `Bearer ${userToken}` },
        },
      },
    ];
    for (const target of targets) {
      const response = await fetch(target.request.url, { headers: target.request.headers });
      if (response.status !== 200) throw new Error(`${target.label}: HTTP ${response.status} ${(await response.text()).slice(0, 500)}`);
    }
    const comparison = await compareWithBaseline({ url: baselineUrl }, targets, ctx.config, (line) => ctx.log(line));
    const figures: StepFigures = {
      employees: WORKFORCE_BENCH_EMPLOYEES,
      seed_seconds: round(seedSeconds),
      bare_rps: Math.round(comparison.baseline.rps_median),
    };
    for (const scenario of comparison.scenarios) {
      figures[`${scenario.id}_rps`] = Math.round(scenario.rps_median);
      figures[`${scenario.id}_ratio`] = round(scenario.ratio.median);
      figures[`${scenario.id}_ratio_min`] = round(scenario.ratio.min);
      figures[`${scenario.id}_ratio_max`] = round(scenario.ratio.max);
      figures[`${scenario.id}_p50_ms`] = round(scenario.p50_ms);
      figures[`${scenario.id}_p99_ms`] = round(scenario.p99_ms);
    }
    const approve = await benchApprove({
      server,
      baselineUrl,
      pbxId: tenant.pbx_id,
      adminToken,
      employeeIds: seeded.employeeIds.slice(-(APPROVALS + 1)),
      approvals: APPROVALS,
      connections: ctx.config.connections,
      log: (line) => ctx.log(line),
    });
    return { ...figures, ...approve };
  });
}
