import type { BenchConfig } from './bench-config.js';
import { measureEndpoint, type LoadResult, type MeasureOptions } from './load.js';
import type { RunFigures, ScenarioFigures } from './report.js';
import { median, spread } from './stats.js';

export interface Target {
  /** Scenario id (or 'baseline'). */
  id: string;
  label: string;
  request: MeasureOptions;
  /** Minimum median ratio to the baseline, printed as PASS/FAIL. */
  target?: number | null;
}

export interface ComparisonResult {
  baseline: RunFigures;
  scenarios: ScenarioFigures[];
}

/** A run whose requests mostly failed measures nothing: stop the benchmark rather than print it. */
function checkRun(label: string, result: LoadResult): LoadResult {
  const failed = result.non2xx + result.errors;
  if (result.requests === 0 || failed > result.requests * 0.01) {
    throw new Error(`${label}: ${result.requests} requests, ${result.non2xx} non-2xx, ${result.errors} socket errors at ${result.url}`);
  }
  return result;
}

function figures(results: LoadResult[]): RunFigures {
  return {
    rps_median: median(results.map((r) => r.rps)),
    p50_ms: median(results.map((r) => r.p50Ms)),
    p99_ms: median(results.map((r) => r.p99Ms)),
    rps: results.map((r) => r.rps),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
  };
}

/**
 * Measures each endpoint against the baseline in alternating runs: one discarded warm-up of
 * everything, then `rounds` rounds of (baseline, endpoint 1, baseline, endpoint 2, ...), so every
 * endpoint run has its own baseline run just before it. Ratios are per pair.
 */
export async function compareWithBaseline(
  baseline: MeasureOptions,
  targets: Target[],
  config: BenchConfig,
  log: (message: string) => void,
): Promise<ComparisonResult> {
  const measure = async (label: string, request: MeasureOptions, durationSec: number) => checkRun(label, await measureEndpoint({ ...request, durationSec }));
  if (config.warmupSec > 0) {
    log(`warm-up (${config.warmupSec} s each, discarded)`);
    await measure('baseline warm-up', baseline, config.warmupSec);
    for (const t of targets) await measure(`${t.id} warm-up`, t.request, config.warmupSec);
  }
  const baselineRuns: LoadResult[] = [];
  const runs = new Map<string, LoadResult[]>(targets.map((t) => [t.id, []]));
  const ratios = new Map<string, number[]>(targets.map((t) => [t.id, []]));
  for (let round = 1; round <= config.rounds; round++) {
    const parts: string[] = [];
    for (const t of targets) {
      const base = await measure('baseline', baseline, config.durationSec);
      const run = await measure(t.id, t.request, config.durationSec);
      baselineRuns.push(base);
      runs.get(t.id)!.push(run);
      ratios.get(t.id)!.push(run.rps / base.rps);
      parts.push(`bare ${base.rps.toFixed(0)} / ${t.id} ${run.rps.toFixed(0)} req/s = ${(run.rps / base.rps).toFixed(2)}`);
    }
    log(`round ${round}/${config.rounds}: ${parts.join('; ')}`);
  }
  return {
    baseline: figures(baselineRuns),
    scenarios: targets.map((t) => {
      const r = ratios.get(t.id)!;
      const ratio = spread(r);
      const target = t.target ?? null;
      return { id: t.id, label: t.label, ...figures(runs.get(t.id)!), ratios: r, ratio, target, pass: target === null ? null : ratio.median >= target };
    }),
  };
}
