/**
 * The absence approve at size, part of the `workforce` step: pending week-long requests of the
 * step's employees (asked through the API by the administrator, one employee each), then
 * `POST /{pbx_id}/absence-requests/{id}/approve` by the administrator, each row approved once,
 * over the step's connections; beside it the bare server answering the same client loop. And the
 * SQL statements one approve costs: the app built in this process on the server's database, a
 * Kysely plugin counting what the database answers while one more request is approved (the
 * caller's token read and cached before, as a warm server has it).
 */
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import type { ApiServer } from './server-process.js';
import { round } from './stats.js';
import { statementCounter } from './statement-counter.js';

const DAY_MS = 86_400_000;

/** A week (Monday to Friday) `weeksAhead` weeks after the one holding today (UTC is close enough: it is weeks away). */
function weekAhead(weeksAhead: number): { start: string; end: string } {
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY_MS + weeksAhead * 7 * DAY_MS;
  const day = (epoch: number) => new Date(epoch).toISOString().slice(0, 10);
  return { start: day(monday), end: day(monday + 4 * DAY_MS) };
}

/** Runs `work(i)` for i in 0..count-1 over `connections` workers; the milliseconds of each. */
async function timed(count: number, connections: number, work: (i: number) => Promise<void>): Promise<{ seconds: number; ms: number[] }> {
  const ms: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(connections, count) }, async () => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        await work(i);
        ms.push(performance.now() - t0);
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, ms };
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

async function expectStatus(response: Response, status: number, what: string): Promise<string> {
  const text = await response.text();
  if (response.status !== status) throw new Error(`${what}: HTTP ${response.status} ${text.slice(0, 500)}`);
  return text;
}

export interface ApproveFigures {
  approvals: number;
  approve_rps: number;
  approve_p50_ms: number;
  approve_p99_ms: number;
  /** The bare server answering the same client loop (GET), for the ratio. */
  approve_bare_rps: number;
  approve_ratio: number;
  approve_statements: number;
}

/**
 * Asks `approvals + 1` pending requests (one per employee of `employeeIds`), approves `approvals`
 * of them over HTTP and the last one in this process, counting its statements.
 */
export async function benchApprove(options: {
  server: ApiServer;
  baselineUrl: string;
  pbxId: string;
  adminToken: string;
  employeeIds: string[];
  approvals: number;
  connections: number;
  log: (message: string) => void;
}): Promise<ApproveFigures> {
  const { server, pbxId, adminToken, approvals, connections } = options;
  const headers = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  const week = weekAhead(3);
  const ids: string[] = [];
  const asked = await timed(approvals + 1, connections, async (i) => {
    const response = await fetch(`${server.apiBase}/${pbxId}/user/${options.employeeIds[i]}/absence-requests`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ type: 'legal', start: week.start, end: week.end }),
    });
    ids[i] = (JSON.parse(await expectStatus(response, 201, 'POST …/absence-requests')) as { data: { id: string } }).data.id;
  });
  options.log(`asked ${approvals + 1} pending requests (${week.start}..${week.end}) in ${asked.seconds.toFixed(1)} s`);

  const approve = async (i: number) => {
    const response = await fetch(`${server.apiBase}/${pbxId}/absence-requests/${ids[i]}/approve`, {
      method: 'POST',
      headers: { authorization: headers.authorization },
    });
    await expectStatus(response, 200, 'POST …/approve');
  };
  const bare = await timed(approvals, connections, async () => {
    await expectStatus(await fetch(options.baselineUrl), 200, 'the bare server');
  });
  const run = await timed(approvals, connections, approve);
  const figures: ApproveFigures = {
    approvals,
    approve_rps: round(approvals / run.seconds),
    approve_p50_ms: round(percentile(run.ms, 50)),
    approve_p99_ms: round(percentile(run.ms, 99)),
    approve_bare_rps: round(approvals / bare.seconds),
    approve_ratio: round(bare.seconds / run.seconds, 3),
    approve_statements: await countApproveStatements(server, pbxId, adminToken, ids[approvals]),
  };
  options.log(
    `approve: ${figures.approve_rps} req/s (${figures.approve_ratio}x the bare server's ${figures.approve_bare_rps} over the same client), p50 ${figures.approve_p50_ms} ms, p99 ${figures.approve_p99_ms} ms; ${figures.approve_statements} SQL statements`,
  );
  return figures;
}

/** The statements one approve costs, in an app built here on the server's database. */
async function countApproveStatements(server: ApiServer, pbxId: string, adminToken: string, id: string): Promise<number> {
  const env: NodeJS.ProcessEnv = { ...server.env, JOB_WORKER: 'false', AMI_EVENTS: 'false' };
  const database = openDatabase({ url: env.DATABASE_URL, sqlitePath: env.SQLITE_PATH, poolSize: 2 });
  const counter = statementCounter();
  const app = await buildApp({ config: loadConfig(env), database: { ...database, db: database.db.withPlugin(counter) } });
  try {
    await app.ready();
    const url = `/api/v1/${pbxId}/absence-requests/${id}`;
    const headers = { authorization: `Bearer ${adminToken}` };
    const read = await app.inject({ method: 'GET', url, headers });
    if (read.statusCode !== 200) throw new Error(`GET ${url}: HTTP ${read.statusCode} ${read.body.slice(0, 500)}`);
    counter.recording = true;
    const response = await app.inject({ method: 'POST', url: `${url}/approve`, headers });
    counter.recording = false;
    if (response.statusCode !== 200) throw new Error(`POST ${url}/approve: HTTP ${response.statusCode} ${response.body.slice(0, 500)}`);
    return counter.count;
  } finally {
    await app.close();
    await database.close();
  }
}
