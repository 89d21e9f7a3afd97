/**
 * Call routing at size: the first demo tenant gets 500 call flows and 200 IVR menus (three keys
 * and a default step each) on top of its demo routing, written straight into the tables as one
 * valid graph (flows 0-249 play a menu; each menu's default step leads to one of flows 250-449,
 * which only ring, so no loop runs without a caller choice). Then `POST /call-routing/validate`
 * (the whole graph checked) and `POST /call-routing/simulate` (the main line through business
 * hours, the menu and a queue), each as a ratio to the bare server; then a routing write
 * (`POST /ivrs`): its latency one write after another, and its statements. Plugged into `npm run bench`
 * as an optional step (OPTIONAL_STEP_MODULES in scenarios.ts).
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase, type DialectName } from '../db/database.js';
import type { DB } from '../db/schema.js';
import { compareWithBaseline } from './compare.js';
import type { StepContext, StepFigures } from './scenarios.js';
import { round } from './stats.js';
import { inChunks, withWorkforceBench } from './workforce-bench.js';
import { statementCounter } from './statement-counter.js';

export const ROUTING_BENCH_FLOWS = 500;
export const ROUTING_BENCH_IVRS = 200;
const MENU_FLOWS = 250;
const STEP_TARGET = 'App\\Models\\CallFlow';

export async function seedRouting(
  db: Kysely<DB>,
  dialect: DialectName,
  pbxId: string,
  memberId: string,
): Promise<{ flows: number; ivrs: number; steps: number; announcement: string }> {
  const now = new Date().toISOString();
  const announcement = randomUUID();
  await db
    .insertInto('sound_files')
    .values({
      id: announcement,
      pbx_id: pbxId,
      name: 'Bench menu',
      type: 'announcement',
      language: 'en',
      format: 'wav',
      mime_type: 'audio/wav',
      size_bytes: 16044,
      duration_ms: 1000,
      sample_rate: 8000,
      channels: 1,
      checksum_sha256: '0'.repeat(64),
      original_filename: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const flowIds = Array.from({ length: ROUTING_BENCH_FLOWS }, () => randomUUID());
  const ivrIds = Array.from({ length: ROUTING_BENCH_IVRS }, () => randomUUID());
  const flows = flowIds.map((id, i) => {
    const menu = i < MENU_FLOWS;
    const nodes = [
      {
        key: 'hours',
        type: 'time_condition',
        open_hours: [{ days: [1, 2, 3, 4, 5], from: '08:00', to: '18:00' }],
        public_holidays_country: 'LU',
        tenant_holidays: true,
        open: menu ? 'menu' : 'ring',
        closed: 'mailbox',
        holiday: null,
      },
      menu
        ? { key: 'menu', type: 'ivr', ivr_id: ivrIds[i % ROUTING_BENCH_IVRS] }
        : { key: 'ring', type: 'ring_user', user_id: memberId, timeout_seconds: 20, no_answer: 'mailbox' },
      { key: 'mailbox', type: 'voicemail', user_id: memberId },
    ];
    return { id, pbx_id: pbxId, name: `Bench flow ${i}`, description: null, entry: 'hours', nodes: JSON.stringify(nodes), created_at: now, updated_at: now };
  });
  const references = flows.flatMap((flow, i) => [
    i < MENU_FLOWS
      ? { call_flow_id: flow.id, pbx_id: pbxId, target_type: 'ivr', target_id: ivrIds[i % ROUTING_BENCH_IVRS], node_key: 'menu', field: 'ivr_id' }
      : { call_flow_id: flow.id, pbx_id: pbxId, target_type: 'user', target_id: memberId, node_key: 'ring', field: 'user_id' },
    { call_flow_id: flow.id, pbx_id: pbxId, target_type: 'user', target_id: memberId, node_key: 'mailbox', field: 'user_id' },
  ]);
  const ivrs = ivrIds.map((id, j) => ({
    id,
    pbx_id: pbxId,
    name: `Bench menu ${j}`,
    comment: null,
    announcement_id: announcement,
    music_on_hold_id: null,
    announcement_language: null,
    default_action: 'default_step' as const,
    timeout_seconds: 5,
    max_repeats: 2,
    created_at: now,
    updated_at: now,
  }));
  const steps = ivrIds.flatMap((ivrId, j) =>
    ['1', '2', '3', 'default'].map((option, k) => ({
      id: randomUUID(),
      pbx_id: pbxId,
      ivr_id: ivrId,
      option,
      name: null,
      // Keys lead anywhere (a caller's choice); the default step only to a flow that rings.
      target_type: STEP_TARGET,
      target_id: option === 'default' ? flowIds[MENU_FLOWS + j] : flowIds[(j * 7 + k * 131) % ROUTING_BENCH_FLOWS],
      language: null,
      voip_ivr_btn_id: null,
      created_at: now,
      updated_at: now,
    })),
  );
  await inChunks(flows, (chunk) => db.insertInto('call_flows').values(chunk).execute());
  await inChunks(references, (chunk) => db.insertInto('call_flow_references').values(chunk).execute());
  await inChunks(ivrs, (chunk) => db.insertInto('ivrs').values(chunk).execute());
  await inChunks(steps, (chunk) => db.insertInto('ivr_steps').values(chunk).execute());
  await (dialect === 'postgres' ? sql`analyze call_flows, ivrs, ivr_steps, call_flow_references` : sql`analyze`).execute(db);
  return { flows: flows.length, ivrs: ivrs.length, steps: steps.length, announcement };
}

const WRITES = 40;

/**
 * A routing write at size: `POST /ivrs` (a menu on the bench announcement), `WRITES` of them one
 * after the other through the server (each a transaction with the graph's checks before and after),
 * and the statements one such write sends, counted in an app built in this process on the same
 * database (the third of three writes, so per-process caches are as warm as the server's).
 */
async function measureRoutingWrite(
  ctx: StepContext,
  server: { apiBase: string; env: NodeJS.ProcessEnv },
  admin: { email: string; password: string },
  headers: Record<string, string>,
  target: { pbxId: string; announcement: string },
): Promise<StepFigures> {
  const body = (i: number) => JSON.stringify({ pbx_id: target.pbxId, name: `Bench write ${i}`, announcement: target.announcement, default_action: 'hangup' });
  const times: number[] = [];
  for (let i = 0; i < WRITES + 3; i++) {
    const started = performance.now();
    const response = await fetch(`${server.apiBase}/ivrs`, { method: 'POST', headers, body: body(i) });
    const text = await response.text();
    if (response.status !== 201) throw new Error(`POST /ivrs: HTTP ${response.status} ${text.slice(0, 500)}`);
    if (i >= 3) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const counter = statementCounter();
  const database = openDatabase({ url: server.env.DATABASE_URL, sqlitePath: server.env.SQLITE_PATH, poolSize: 4 });
  const app = await buildApp({
    config: loadConfig({ ...server.env, JOB_WORKER: 'false', AMI_EVENTS: 'false', SEED_DEMO: 'false', LOG_LEVEL: 'silent' }),
    database: { ...database, db: database.db.withPlugin(counter) },
  });
  let statements: number;
  try {
    const login = await app.inject({ method: 'POST', url: '/api/v1/login', payload: { email: admin.email, password: admin.password } });
    if (login.statusCode !== 200) throw new Error(`POST /login (in process): HTTP ${login.statusCode} ${login.body.slice(0, 500)}`);
    const token = login.json<{ data: { token: string } }>().data.token;
    const write = async (i: number) => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/ivrs',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: body(WRITES + 10 + i),
      });
      if (response.statusCode !== 201) throw new Error(`POST /ivrs (in process): HTTP ${response.statusCode} ${response.body.slice(0, 500)}`);
    };
    await write(0);
    await write(1);
    counter.recording = true;
    await write(2);
    counter.recording = false;
    statements = counter.count;
  } finally {
    await app.close();
    await database.close();
  }
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  ctx.log(
    `routing write POST /ivrs: ${statements} statements; p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms over ${WRITES} writes one after the other`,
  );
  return {
    routing_write_statements: statements,
    routing_write_p50_ms: round(at(0.5)),
    routing_write_p99_ms: round(at(0.99)),
    routing_write_per_s: round(1000 / (times.reduce((sum, t) => sum + t, 0) / times.length)),
  };
}

/** The benchmark step: its own server and bare server, the routing at size, validation and simulation against the bare server. */
export async function benchRouting(ctx: StepContext): Promise<StepFigures> {
  return withWorkforceBench(ctx, seedRouting, async ({ server, baselineUrl, tenant, seeded, seedSeconds }) => {
    ctx.log(`seeded ${seeded.flows} call flows, ${seeded.ivrs} IVRs and ${seeded.steps} steps in ${seedSeconds.toFixed(1)} s`);
    const token = await server.login(tenant.admin.email, tenant.admin.password);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const routed = tenant.samples.routed_number;
    if (typeof routed !== 'string') throw new Error('the demo seed has no samples.routed_number');
    const number = (await (await fetch(`${server.apiBase}/phone-numbers/${routed}`, { headers })).json()) as { data: { number: string } };
    // A Tuesday at 10:00 in Luxembourg: open hours, the main menu, key 2 (support), the queue.
    const simulation = JSON.stringify({ number: number.data.number, at: '2026-11-24T09:00:00Z', keys: ['2'] });
    const validation = await fetch(`${server.apiBase}/call-routing/validate`, { method: 'POST', headers, body: '{}' });
    const report = (await validation.json()) as { data?: { valid: boolean; problems: unknown[] } };
    if (validation.status !== 200 || !report.data?.valid) throw new Error(`validate: HTTP ${validation.status}, ${JSON.stringify(report).slice(0, 500)}`);
    const simulated = await fetch(`${server.apiBase}/call-routing/simulate`, { method: 'POST', headers, body: simulation });
    const path = (await simulated.json()) as { data?: { result: string; steps: unknown[] } };
    if (simulated.status !== 200 || path.data?.result !== 'answered')
      throw new Error(`simulate: HTTP ${simulated.status}, ${JSON.stringify(path).slice(0, 500)}`);
    ctx.log(`the graph is valid; the simulated call takes ${path.data.steps.length} steps and is answered`);

    const comparison = await compareWithBaseline(
      { url: baselineUrl },
      [
        {
          id: 'routing_validate',
          label: `POST /call-routing/validate (${seeded.flows} flows, ${seeded.ivrs} IVRs)`,
          request: { url: `${server.apiBase}/call-routing/validate`, headers, method: 'POST', body: '{}' },
        },
        {
          id: 'routing_simulate',
          label: 'POST /call-routing/simulate (main line, open hours, key 2, queue)',
          request: { url: `${server.apiBase}/call-routing/simulate`, headers, method: 'POST', body: simulation },
        },
      ],
      ctx.config,
      (line) => ctx.log(line),
    );
    const figures: StepFigures = {
      flows: seeded.flows,
      ivrs: seeded.ivrs,
      steps: seeded.steps,
      seed_seconds: round(seedSeconds),
      bare_rps: Math.round(comparison.baseline.rps_median),
    };
    for (const scenario of comparison.scenarios) {
      figures[`${scenario.id}_rps`] = round(scenario.rps_median);
      figures[`${scenario.id}_ratio`] = round(scenario.ratio.median, 4);
      figures[`${scenario.id}_ratio_min`] = round(scenario.ratio.min, 4);
      figures[`${scenario.id}_ratio_max`] = round(scenario.ratio.max, 4);
      figures[`${scenario.id}_p50_ms`] = round(scenario.p50_ms);
      figures[`${scenario.id}_p99_ms`] = round(scenario.p99_ms);
    }
    // Last: the writes add menus (each bumps the tenant's routing), which the reads above must not see.
    Object.assign(figures, await measureRoutingWrite(ctx, server, tenant.admin, headers, { pbxId: tenant.pbx_id, announcement: seeded.announcement }));
    return figures;
  });
}
