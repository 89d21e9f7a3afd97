import type { BenchConfig } from './bench-config.js';
import type { LoadResult, MeasureOptions } from './load.js';
import type { ApiServer, DatabaseKind } from './server-process.js';

/** Logins and keys prepared once per server, for scenarios to pick their credentials from. */
export interface BenchCredentials {
  /** Token of a demo user who is not an admin (first tenant). */
  userToken: string;
  /** Token of the first tenant's demo admin. */
  adminToken: string;
  /** The first tenant's PBX API key. */
  pbxApiKey: string;
}

export interface ScenarioContext {
  server: ApiServer;
  credentials: BenchCredentials;
}

/**
 * One endpoint measured against the bare baseline: alternating baseline/endpoint runs, ratio per
 * pair. Add one by pushing to `EXTRA_SCENARIOS`; run.ts measures every registered scenario.
 */
export interface Scenario {
  /** Short id, used in the JSON figures and in BENCH_SCENARIOS. */
  id: string;
  /** What is printed, e.g. `GET /api/v1/me`. */
  label: string;
  /** Path below the API base (`/api/v1`), with its query string. GET only, no body. */
  path: string;
  headers(ctx: ScenarioContext): Record<string, string>;
  /** Run once on each database's server before the scenario is checked and measured (e.g. to add rows). */
  prepare?(ctx: ScenarioContext): Promise<void>;
  /** Minimum median ratio to the bare server, per database; printed as PASS/FAIL. */
  target?: Partial<Record<DatabaseKind, number>>;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Rows of the users list the issue (#39) measured: a full page of 15. */
const USERS_LIST_ROWS = 15;

async function call(ctx: ScenarioContext, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${ctx.server.apiBase}${path}`, {
    method,
    headers: { ...bearer(ctx.credentials.adminToken), accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${text.slice(0, 500)}`);
  return JSON.parse(text) as unknown;
}

/**
 * The demo tenant has 4 users; the issue measured a page of 15. Adds users through the API, each
 * with one extension like the demo's own, until the tenant has 15.
 */
async function fillUsersPage(ctx: ScenarioContext): Promise<void> {
  const { data } = (await call(ctx, 'GET', `/users?perPage=${USERS_LIST_ROWS}`)) as { data: unknown[] };
  for (let i = data.length; i < USERS_LIST_ROWS; i++) {
    const user = (await call(ctx, 'POST', '/users', {
      email: `bench.user${i}@bench.example`,
      first_name: 'Bench',
      last_name: `User ${String(i).padStart(2, '0')}`,
      role: 'user',
    })) as { id: string };
    await call(ctx, 'POST', '/extensions', { number: String(8100 + i), name: `Bench User ${i}`, user_id: user.id, voicemail_enabled: true });
  }
}

export const SCENARIOS: Scenario[] = [
  {
    id: 'me',
    label: 'GET /api/v1/me (user token)',
    path: '/me',
    headers: ({ credentials }) => bearer(credentials.userToken),
    target: { sqlite: 0.6, postgres: 0.35 },
  },
  {
    id: 'api_keys_list',
    label: 'GET /api/v1/integrations/api-keys?perPage=15 (admin)',
    path: '/integrations/api-keys?perPage=15',
    headers: ({ credentials }) => bearer(credentials.adminToken),
  },
  {
    // A second list on the same generic path, with a relation embedded (one query per relation).
    id: 'users_list',
    label: 'GET /api/v1/users?perPage=15&include=extensions (admin)',
    path: '/users?perPage=15&include=extensions',
    headers: ({ credentials }) => bearer(credentials.adminToken),
    prepare: fillUsersPage,
  },
];

/** More endpoint scenarios, registered by other modules before run.ts starts measuring. */
export const EXTRA_SCENARIOS: Scenario[] = [];

/** What a non-endpoint benchmark step (e.g. an import benchmark) gets, once per database. */
export interface StepContext {
  server: ApiServer;
  credentials: BenchCredentials;
  config: BenchConfig;
  /** `measureEndpoint` with the run's duration, connections, tool and core pinning. */
  measure(options: MeasureOptions): Promise<LoadResult>;
  log(message: string): void;
}

/** Figures a step reports: printed as `name: key=value ...` lines and included in the JSON line. */
export type StepFigures = Record<string, number | string | boolean | null>;

export interface BenchStep {
  name: string;
  /** Run on the first database only (for steps that bring their own database). */
  once?: boolean;
  run(ctx: StepContext): Promise<StepFigures | void>;
}

/** Extra steps run after the endpoint scenarios, on each database. */
export const EXTRA_STEPS: BenchStep[] = [];

/**
 * Optional step modules, loaded when present in dist/bench/: each exports a function
 * `(ctx: StepContext) => Promise<StepFigures | void>` under the given name.
 */
export const OPTIONAL_STEP_MODULES: ReadonlyArray<{ name: string; module: string; export: string; once?: boolean }> = [
  // benchStartup() starts the API (and a bare Fastify app) several times on the first database's files.
  { name: 'startup', module: './startup-bench.js', export: 'benchStartup', once: true },
  // benchImport() brings its own database: a SQLite file, or a PostgreSQL schema in the PostgreSQL run.
  { name: 'import', module: './import-bench.js', export: 'benchImport' },
  // benchCdrs() starts its own server and seeds 1,000,000 call records, on each database.
  { name: 'cdrs', module: './cdr-bench.js', export: 'benchCdrs' },
  // benchWorkforce() starts its own server and seeds 2,000 employees, on each database.
  { name: 'workforce', module: './workforce-bench.js', export: 'benchWorkforce' },
  // benchHomeOfficeCalendar() starts its own server and seeds those 2,000 employees with a year of requests, on each database.
  { name: 'home-office-calendar', module: './home-office-bench.js', export: 'benchHomeOfficeCalendar' },
  // benchRouting() starts its own server and seeds 500 call flows and 200 IVRs, on each database.
  { name: 'routing', module: './routing-bench.js', export: 'benchRouting' },
  // benchConfigPush() starts its own server and seeds 5,000 users and 500 call flows, on each database.
  { name: 'config-push', module: './config-push-bench.js', export: 'benchConfigPush' },
  // benchLiveEvents() builds its own server in the bench process and opens 1,000 event streams from a child, on each database.
  { name: 'live-events', module: './events-bench.js', export: 'benchLiveEvents' },
];
