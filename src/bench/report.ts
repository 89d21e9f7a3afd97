import type { BenchConfig, LoadToolName } from './bench-config.js';
import type { DatabaseKind } from './server-process.js';
import type { StepFigures } from './scenarios.js';
import { round, type Spread } from './stats.js';

export interface RunFigures {
  rps_median: number;
  p50_ms: number;
  p99_ms: number;
  /** Every measured run's req/s, in order (the warm-up excluded). */
  rps: number[];
  non2xx: number;
  errors: number;
}

export interface ScenarioFigures extends RunFigures {
  id: string;
  label: string;
  /** Endpoint req/s over the baseline req/s of the run just before it, per pair. */
  ratios: number[];
  ratio: Spread;
  target: number | null;
  pass: boolean | null;
}

export interface DatabaseFigures {
  database: DatabaseKind;
  baseline: RunFigures;
  scenarios: ScenarioFigures[];
  steps: Record<string, StepFigures>;
}

export interface BenchReport {
  benchmark: 'pbx-api';
  started_at: string;
  elapsed_s: number;
  tool: LoadToolName;
  connections: number;
  pipelining: 1;
  duration_s: number;
  warmup_s: number;
  rounds: number;
  server_cpu: number | null;
  load_cpu: number | null;
  baseline_body_bytes: number;
  node: string;
  cores: number;
  databases: DatabaseFigures[];
  /** Problems that did not stop the run (a failed extra step, ...). */
  problems: string[];
}

const DB_NAMES: Record<DatabaseKind, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

function fixed(value: number, decimals: number): string {
  return Number.isFinite(value) ? value.toFixed(decimals) : '-';
}

function table(rows: string[][], rightAligned: boolean[]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => (rightAligned[column] ? cell.padStart(widths[column]) : cell.padEnd(widths[column])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export function formatReport(report: BenchReport, config: BenchConfig): string {
  const pinning = report.server_cpu === null ? 'not pinned' : `server on core ${report.server_cpu}, load on core ${report.load_cpu ?? '-'}`;
  const out: string[] = [
    '',
    `pbx-api benchmark: ${report.tool}, ${report.connections} connections, no pipelining, ${config.durationSec} s per run, ` +
      `${config.rounds} baseline/endpoint pairs per endpoint, ${config.warmupSec ? `${config.warmupSec} s warm-up discarded` : 'no warm-up'}; ${pinning}; ` +
      `baseline body ${report.baseline_body_bytes} B; node ${report.node}, ${report.cores} cores; ${report.elapsed_s.toFixed(0)} s in all`,
  ];
  for (const db of report.databases) {
    const rows: string[][] = [['endpoint', 'req/s (median)', 'ratio to bare: median (min-max)', 'p50 ms', 'p99 ms', 'target', '']];
    rows.push(['bare node:http hello world', fixed(db.baseline.rps_median, 0), '1.00', fixed(db.baseline.p50_ms, 2), fixed(db.baseline.p99_ms, 2), '', '']);
    for (const s of db.scenarios) {
      rows.push([
        s.label,
        fixed(s.rps_median, 0),
        `${fixed(s.ratio.median, 2)} (${fixed(s.ratio.min, 2)}-${fixed(s.ratio.max, 2)})`,
        fixed(s.p50_ms, 2),
        fixed(s.p99_ms, 2),
        s.target === null ? '' : `>= ${s.target.toFixed(2)}x`,
        s.pass === null ? '' : s.pass ? 'PASS' : 'FAIL',
      ]);
    }
    out.push('', `${DB_NAMES[db.database]}`, table(rows, [false, true, true, true, true, false, false]));
    const bad = [db.baseline, ...db.scenarios].filter((r) => r.non2xx || r.errors);
    if (bad.length) out.push(`  note: some runs had non-2xx responses or socket errors (see JSON: non2xx, errors)`);
    for (const [name, figures] of Object.entries(db.steps)) {
      out.push(
        `  ${name}: ${Object.entries(figures)
          .map(([key, value]) => `${key}=${String(value)}`)
          .join(' ')}`,
      );
    }
  }
  if (report.tool === 'autocannon') out.push('note: autocannon records latency in whole milliseconds; install wrk for finer figures');
  for (const problem of report.problems) out.push(`problem: ${problem}`);
  out.push('');
  return out.join('\n');
}

/** The JSON line: every figure, rounded for quoting. */
export function reportJson(report: BenchReport): string {
  return JSON.stringify(report, (_key, value: unknown) => (typeof value === 'number' ? round(value, 3) : value));
}
