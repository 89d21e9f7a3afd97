import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DemoSeed } from '../demo-seed.js';
import { createBenchSchema, type BenchSchema } from './postgres.js';
import { freePort, onCleanup, removeTempDir, runChild, startChild, trackTempDir, waitForHttp, type StartedChild } from './processes.js';

export type DatabaseKind = 'sqlite' | 'postgres';

/** A running `pbx-api serve` child on a fresh, seeded database. */
export interface ApiServer {
  dialect: DatabaseKind;
  /** http://127.0.0.1:PORT */
  origin: string;
  /** http://127.0.0.1:PORT/api/v1 */
  apiBase: string;
  /** The environment the server runs with (use it for further CLI commands on the same database). */
  env: NodeJS.ProcessEnv;
  /** The demo logins and keys, from `pbx-api seed --demo --json`. */
  seed: DemoSeed;
  process: StartedChild;
  /** Runs `pbx-api ...args` against the same database; resolves to its stdout. */
  cli(args: string[]): Promise<string>;
  /** `POST /login`, resolving to the user token. */
  login(email: string, password: string): Promise<string>;
  stop(): Promise<void>;
}

/** The command as shipped (`bin/pbx-api.js`, which runs the bundle of `npm run build`). */
export const CLI = fileURLToPath(new URL('../../bin/pbx-api.js', import.meta.url));

/** Variables of the caller's environment that must not leak into the benchmarked server. */
const SCRUBBED = ['DATABASE_URL', 'SQLITE_PATH', 'DATA_DIR', 'REDIS_URL', 'BASE_URL', 'SMTP_URL', 'PORT', 'HOST', 'NODE_OPTIONS'];

function serverEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of SCRUBBED) delete env[name];
  return {
    ...env,
    NODE_ENV: 'production',
    SECRET_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '100000000',
    SEED_DEMO: 'true',
    HOST: '127.0.0.1',
    ...extra,
  };
}

function parseSeed(stdout: string): DemoSeed {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    throw new Error(`pbx-api seed --demo --json did not print JSON:\n${stdout.slice(0, 2_000)}`);
  }
  const tenants = (parsed as { tenants?: unknown }).tenants;
  if (!Array.isArray(tenants) || tenants.length === 0) throw new Error('pbx-api seed --demo --json printed no tenants');
  return parsed as DemoSeed;
}

/**
 * Starts `pbx-api serve` on a free loopback port, on a fresh database: SQLite in a temp
 * DATA_DIR, or a fresh `bench_<random>` schema when `postgresUrl` is given. Seeds the demo data first.
 */
export async function startApiServer(options: {
  postgresUrl?: string | null;
  cpu: number | null;
  /** Extra `node` flags for the server only (e.g. `--cpu-prof`, `--import=./preload.mjs`). */
  nodeArgs?: string[];
  /** Extra environment for the server and its CLI commands. */
  env?: Record<string, string>;
}): Promise<ApiServer> {
  const dialect: DatabaseKind = options.postgresUrl ? 'postgres' : 'sqlite';
  const dataDir = mkdtempSync(join(tmpdir(), 'pbx-api-bench-'));
  trackTempDir(dataDir);
  let schema: BenchSchema | null = null;
  let unregister: (() => void) | null = null;
  let started: StartedChild | null = null;

  const release = async () => {
    if (started) await started.stop();
    if (schema) await schema.drop();
    removeTempDir(dataDir);
  };

  try {
    if (options.postgresUrl) {
      schema = await createBenchSchema(options.postgresUrl);
    }
    unregister = onCleanup(release);
    const port = await freePort();
    const env = serverEnv({
      DATA_DIR: dataDir,
      SQLITE_PATH: join(dataDir, 'bench.sqlite'),
      PORT: String(port),
      ...(schema ? { DATABASE_URL: schema.serverUrl } : {}),
      ...options.env,
    });
    const cli = (args: string[]) => runChild(process.execPath, [CLI, ...args], env);

    // Migrates and seeds (idempotent); the server then finds the seed and starts straight away.
    const seed = parseSeed(await cli(['seed', '--demo', '--json']));
    if (schema && (await schema.countTables()) === 0) {
      throw new Error(`PostgreSQL did not honour search_path=${schema.schema} given in the URL's options parameter (no tables in the schema)`);
    }

    started = startChild(process.execPath, [...(options.nodeArgs ?? []), CLI, 'serve'], env, options.cpu);
    const origin = `http://127.0.0.1:${port}`;
    await waitForHttp(`${origin}/health`, started);
    const apiBase = `${origin}/api/v1`;
    const child = started;

    return {
      dialect,
      origin,
      apiBase,
      env,
      seed,
      process: child,
      cli,
      login: (email, password) => login(apiBase, email, password),
      stop: async () => {
        unregister?.();
        await release();
      },
    };
  } catch (error) {
    unregister?.();
    await release();
    throw error;
  }
}

export async function login(apiBase: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${apiBase}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST /login as ${email}: HTTP ${response.status} ${text.slice(0, 500)}`);
  const token = (JSON.parse(text) as { data?: { token?: unknown } }).data?.token;
  if (typeof token !== 'string') throw new Error(`POST /login as ${email}: no data.token in ${text.slice(0, 500)}`);
  return token;
}
