/**
 * `npm run bench`: the real server (`pbx-api serve`, the built bundle) on a fresh, seeded SQLite database,
 * and on PostgreSQL too when BENCH_DATABASE_URL is set, measured against a bare `node:http` server.
 * Settings: see bench-config.ts. Prints a table, then one JSON line with every figure.
 * Exit status is 0 whether targets pass or fail; non-zero only when the benchmark itself broke.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { startBaselineServer, type BaselineServer } from './baseline.js';
import { loadBenchConfig, type BenchConfig } from './bench-config.js';
import { compareWithBaseline } from './compare.js';
import { detectLoadTool, measureEndpoint } from './load.js';
import { cleanupAll, installCleanupHandlers } from './processes.js';
import { formatReport, reportJson, type BenchReport, type DatabaseFigures } from './report.js';
import {
  EXTRA_SCENARIOS,
  EXTRA_STEPS,
  OPTIONAL_STEP_MODULES,
  SCENARIOS,
  type BenchCredentials,
  type BenchStep,
  type Scenario,
  type StepContext,
  type StepFigures,
} from './scenarios.js';
import { startApiServer, type ApiServer, type DatabaseKind } from './server-process.js';

function log(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

/** Steps from EXTRA_STEPS plus the optional modules that exist in this build. */
async function loadSteps(): Promise<BenchStep[]> {
  const steps = [...EXTRA_STEPS];
  for (const optional of OPTIONAL_STEP_MODULES) {
    const url = new URL(optional.module, import.meta.url);
    if (!existsSync(fileURLToPath(url))) continue;
    const loaded: unknown = await import(url.href);
    const fn = (loaded as Record<string, unknown>)[optional.export];
    if (typeof fn !== 'function') throw new Error(`${optional.module} does not export a function ${optional.export}`);
    const run = fn as (ctx: StepContext) => Promise<StepFigures | void>;
    if (!steps.some((s) => s.name === optional.name)) steps.push({ name: optional.name, once: optional.once, run });
  }
  return steps;
}

async function credentialsFor(server: ApiServer): Promise<BenchCredentials> {
  const tenant = server.seed.tenants[0];
  const user = tenant.users.find((u) => u.id !== tenant.admin.id && u.password);
  if (!user) throw new Error('the demo seed has no non-admin user with a password');
  return {
    userToken: await server.login(user.email, user.password),
    adminToken: await server.login(tenant.admin.email, tenant.admin.password),
    pbxApiKey: tenant.pbx_api_key,
  };
}

/** One request per scenario before measuring: each must answer 200; returns the body sizes. */
async function checkScenarios(server: ApiServer, credentials: BenchCredentials, scenarios: Scenario[]): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  for (const scenario of scenarios) {
    await scenario.prepare?.({ server, credentials });
    const response = await fetch(`${server.apiBase}${scenario.path}`, { headers: scenario.headers({ server, credentials }) });
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) throw new Error(`${scenario.label}: HTTP ${response.status} ${body.toString('utf8').slice(0, 500)}`);
    sizes.set(scenario.id, body.length);
  }
  return sizes;
}

async function benchDatabase(
  kind: DatabaseKind,
  config: BenchConfig,
  scenarios: Scenario[],
  steps: BenchStep[],
  getBaseline: (bodyBytes: number) => Promise<BaselineServer>,
  problems: string[],
  firstDatabase: boolean,
): Promise<DatabaseFigures> {
  const say = (message: string) => log(`[${kind}] ${message}`);
  say('starting the server on a fresh, seeded database');
  const server = await startApiServer({ postgresUrl: kind === 'postgres' ? config.postgresUrl : null, cpu: config.serverCpu, nodeArgs: config.serverNodeArgs });
  try {
    say(`serving ${server.apiBase}`);
    const credentials = await credentialsFor(server);
    const sizes = await checkScenarios(server, credentials, scenarios);
    const baseline = await getBaseline(sizes.get('me') ?? sizes.values().next().value ?? 400);
    const comparison = await compareWithBaseline(
      { url: baseline.url },
      scenarios.map((s) => ({
        id: s.id,
        label: s.label,
        request: { url: `${server.apiBase}${s.path}`, headers: s.headers({ server, credentials }) },
        target: s.target?.[kind] ?? null,
      })),
      config,
      say,
    );
    const figures: DatabaseFigures = { database: kind, ...comparison, steps: {} };
    for (const step of steps) {
      if (step.once && !firstDatabase) continue;
      say(`step ${step.name}`);
      try {
        const result = await step.run({ server, credentials, config, measure: (options) => measureEndpoint(options), log: (m) => say(`${step.name}: ${m}`) });
        figures.steps[step.name] = result ?? {};
      } catch (error) {
        problems.push(`[${kind}] step ${step.name} failed: ${(error as Error).message}`);
        figures.steps[step.name] = { error: (error as Error).message };
      }
    }
    return figures;
  } catch (error) {
    const child = server.process.child;
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `${(error as Error).message}\nthe API server exited (${child.exitCode ?? child.signalCode}); its last output:\n${server.process.output().trim()}`,
        { cause: error },
      );
    }
    throw error;
  } finally {
    await server.stop();
  }
}

async function main(): Promise<number> {
  const started = Date.now();
  installCleanupHandlers();
  const config = loadBenchConfig();
  const tool = detectLoadTool(config.tool);
  const all = [...SCENARIOS, ...EXTRA_SCENARIOS];
  const scenarios = config.only ? all.filter((s) => config.only!.includes(s.id)) : all;
  if (scenarios.length === 0) throw new Error(`BENCH_SCENARIOS matched none of: ${all.map((s) => s.id).join(', ')}`);
  const steps = (await loadSteps()).filter((step) => !config.steps || config.steps.includes(step.name));
  const databases: DatabaseKind[] = config.postgresUrl ? ['sqlite', 'postgres'] : ['sqlite'];
  log(
    `load generator: ${tool}; databases: ${databases.join(', ')}; scenarios: ${scenarios.map((s) => s.id).join(', ')}${steps.length ? `; steps: ${steps.map((s) => s.name).join(', ')}` : ''}`,
  );

  let baseline: BaselineServer | null = null;
  const getBaseline = async (bodyBytes: number) => {
    baseline ??= await startBaselineServer({ bodyBytes, cpu: config.serverCpu });
    return baseline;
  };
  const problems: string[] = [];
  const results: DatabaseFigures[] = [];
  try {
    for (const kind of databases) results.push(await benchDatabase(kind, config, scenarios, steps, getBaseline, problems, kind === databases[0]));
  } finally {
    const running = baseline as BaselineServer | null;
    if (running) await running.stop();
  }

  const report: BenchReport = {
    benchmark: 'pbx-api',
    started_at: new Date(started).toISOString(),
    elapsed_s: (Date.now() - started) / 1000,
    tool,
    connections: config.connections,
    pipelining: 1,
    duration_s: config.durationSec,
    warmup_s: config.warmupSec,
    rounds: config.rounds,
    server_cpu: config.serverCpu,
    load_cpu: config.loadCpu,
    baseline_body_bytes: (baseline as BaselineServer | null)?.bodyBytes ?? 0,
    node: process.version,
    cores: availableParallelism(),
    databases: results,
    problems,
  };
  process.stdout.write(formatReport(report, config));
  process.stdout.write(`${reportJson(report)}\n`);
  return problems.length ? 1 : 0;
}

main()
  .then(async (code) => {
    await cleanupAll();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    process.stderr.write(`bench: failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    await cleanupAll();
    process.exit(1);
  });
