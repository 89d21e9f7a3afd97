import { availableParallelism } from 'node:os';

export type LoadToolName = 'wrk' | 'autocannon';

/** Benchmark settings, from the environment (all optional). */
export interface BenchConfig {
  /** Seconds per measured run (BENCH_DURATION, default 5). */
  durationSec: number;
  /** Seconds of the discarded warm-up run of each server/endpoint (BENCH_WARMUP, default 3; 0 skips). */
  warmupSec: number;
  /** Baseline/endpoint pairs per endpoint (BENCH_ROUNDS, default 5). */
  rounds: number;
  /** Concurrent connections, no pipelining (BENCH_CONNECTIONS, default 10). */
  connections: number;
  /** Forces a load generator (BENCH_TOOL=wrk|autocannon); default: wrk when installed. */
  tool: LoadToolName | null;
  /** PostgreSQL URL to also benchmark on (BENCH_DATABASE_URL); a fresh schema is made and dropped. */
  postgresUrl: string | null;
  /** Core for the servers and core for the load generator (BENCH_SERVER_CPU, BENCH_LOAD_CPU; default 0 and 1). */
  serverCpu: number | null;
  loadCpu: number | null;
  /** Extra `node` flags for the API server (BENCH_SERVER_NODE_ARGS, space-separated), e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
  serverNodeArgs: string[];
  /** Comma-separated scenario ids to run (BENCH_SCENARIOS); default all. */
  only: string[] | null;
  /** Comma-separated step names to run (BENCH_STEPS, e.g. `import,cdrs`; `none` runs none); default all. */
  steps: string[] | null;
}

function positive(value: string | undefined, fallback: number, name: string, allowZero = false): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0 || (!allowZero && parsed === 0))
    throw new Error(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} number, got "${value}"`);
  return parsed;
}

function list(value: string | undefined): string[] | null {
  return value
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : null;
}

export function loadBenchConfig(env: NodeJS.ProcessEnv = process.env): BenchConfig {
  const tool = env.BENCH_TOOL || null;
  if (tool !== null && tool !== 'wrk' && tool !== 'autocannon') throw new Error(`BENCH_TOOL must be wrk or autocannon, got "${tool}"`);
  const cores = availableParallelism();
  const pin = cores >= 2;
  const cpu = (value: string | undefined, fallback: number, name: string): number | null => {
    if (value === 'none') return null;
    if (!pin && (value === undefined || value === '')) return null;
    const parsed = positive(value, fallback, name, true);
    if (!Number.isInteger(parsed) || parsed >= cores) throw new Error(`${name} must be a core number below ${cores}, got "${value}"`);
    return parsed;
  };
  return {
    durationSec: Math.round(positive(env.BENCH_DURATION, 5, 'BENCH_DURATION')),
    warmupSec: Math.round(positive(env.BENCH_WARMUP, 3, 'BENCH_WARMUP', true)),
    rounds: Math.round(positive(env.BENCH_ROUNDS, 5, 'BENCH_ROUNDS')),
    connections: Math.round(positive(env.BENCH_CONNECTIONS, 10, 'BENCH_CONNECTIONS')),
    tool,
    postgresUrl: env.BENCH_DATABASE_URL || null,
    serverCpu: cpu(env.BENCH_SERVER_CPU, 0, 'BENCH_SERVER_CPU'),
    loadCpu: cpu(env.BENCH_LOAD_CPU, 1, 'BENCH_LOAD_CPU'),
    serverNodeArgs: (env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
    only: list(env.BENCH_SCENARIOS),
    steps: env.BENCH_STEPS === 'none' ? [] : list(env.BENCH_STEPS),
  };
}
