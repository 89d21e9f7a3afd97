/**
 * Cold start: from spawning `pbx-api serve` (the bundle `npm run build` makes; SEED_DEMO=false, on
 * the bench's seeded and migrated database, no job worker) to its first `/health` answer, and the
 * resident memory once it has idled a second (and, in the last run, once settled); the same for a
 * bare Fastify app with one route, started the same way, so the figures read as ratios on this
 * noisy machine. Medians of alternating runs.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, startChild, waitForHttp } from './processes.js';
import { CLI } from './server-process.js';
import type { StepContext, StepFigures } from './scenarios.js';
import { median } from './stats.js';

const BARE = fileURLToPath(new URL('./bare-fastify-server.js', import.meta.url));
const RUNS = 5;

interface Start {
  ms: number;
  rssMb: number;
  /** After `settleMs` more of idling, once V8's memory reducer has given back what the start used (last run only). */
  settledRssMb?: number;
}

/** How long V8 waits before shrinking an idle heap, and some margin: a server's resident memory once it has settled. */
const SETTLE_MS = 20_000;

function residentMb(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return line ? Math.round(Number(line.replace(/\D+/g, '')) / 1024) : Number.NaN;
}

async function timeStart(args: string[], env: NodeJS.ProcessEnv, cpu: number | null, settleMs = 0): Promise<Start> {
  const port = await freePort();
  const began = performance.now();
  const started = startChild(process.execPath, args, { ...env, PORT: String(port) }, cpu);
  try {
    // Asked every 10 ms: the default 100 ms would add up to a tenth of a second to either start.
    await waitForHttp(`http://127.0.0.1:${port}/health`, started, 60_000, 10);
    const ms = performance.now() - began;
    await sleep(1_000);
    const rssMb = residentMb(started.child.pid);
    if (settleMs === 0) return { ms, rssMb };
    await sleep(settleMs);
    return { ms, rssMb, settledRssMb: residentMb(started.child.pid) };
  } finally {
    await started.stop();
  }
}

export async function benchStartup(ctx: StepContext): Promise<StepFigures> {
  const env = { ...ctx.server.env, SEED_DEMO: 'false', JOB_WORKER: 'false' };
  const api: Start[] = [];
  const bare: Start[] = [];
  for (let run = 0; run < RUNS; run++) {
    const settle = run === RUNS - 1 ? SETTLE_MS : 0;
    api.push(await timeStart([CLI, 'serve'], env, ctx.config.serverCpu, settle));
    bare.push(await timeStart([BARE], env, ctx.config.serverCpu, settle));
  }
  const apiMs = median(api.map((s) => s.ms));
  const bareMs = median(bare.map((s) => s.ms));
  const figures = {
    api_start_ms: Math.round(apiMs),
    bare_fastify_start_ms: Math.round(bareMs),
    start_ratio: Number((apiMs / bareMs).toFixed(2)),
    api_idle_rss_mb: median(api.map((s) => s.rssMb)),
    bare_fastify_idle_rss_mb: median(bare.map((s) => s.rssMb)),
    api_settled_rss_mb: api[RUNS - 1].settledRssMb ?? null,
    bare_fastify_settled_rss_mb: bare[RUNS - 1].settledRssMb ?? null,
  };
  ctx.log(
    `cold start ${figures.api_start_ms} ms (bare Fastify ${figures.bare_fastify_start_ms} ms, x${figures.start_ratio}); idle RSS ${figures.api_idle_rss_mb} MB (bare ${figures.bare_fastify_idle_rss_mb} MB), ${figures.api_settled_rss_mb} MB after ${SETTLE_MS / 1000} s more (bare ${figures.bare_fastify_settled_rss_mb} MB)`,
  );
  return figures;
}
