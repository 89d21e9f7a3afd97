import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBenchConfig, type LoadToolName } from './bench-config.js';
import { hasCommand, removeTempDir, runChild, trackTempDir } from './processes.js';

/** One load-generator run against one URL. */
export interface LoadResult {
  tool: LoadToolName;
  url: string;
  requests: number;
  durationSec: number;
  /** Completed requests per second over the whole run. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Responses with a status of 400 or more (wrk) / outside 2xx (autocannon). */
  non2xx: number;
  /** Connect, read, write errors and timeouts. */
  errors: number;
}

export interface MeasureOptions {
  url: string;
  headers?: Record<string, string>;
  /** Seconds; default BENCH_DURATION. */
  durationSec?: number;
  /** Default BENCH_CONNECTIONS. */
  connections?: number;
  /** Default BENCH_TOOL, else wrk when installed, else autocannon. */
  tool?: LoadToolName;
  /** Core to pin the load generator to; default BENCH_LOAD_CPU (null: not pinned). */
  cpu?: number | null;
  /** Default GET; a POST sends `body` (JSON) with every request. */
  method?: 'GET' | 'POST';
  body?: string;
}

let detected: LoadToolName | undefined;

/** wrk when installed (and not overridden by BENCH_TOOL), else autocannon. */
export function detectLoadTool(preferred: LoadToolName | null = loadBenchConfig().tool): LoadToolName {
  if (preferred === 'wrk' && !hasCommand('wrk')) throw new Error('BENCH_TOOL=wrk but wrk is not installed (apt-get install wrk)');
  if (preferred) return preferred;
  detected ??= hasCommand('wrk') ? 'wrk' : 'autocannon';
  return detected;
}

/**
 * Sends load to one URL for a fixed time with a fixed number of connections, no pipelining,
 * and returns throughput and latency. The load generator runs as a child process pinned to its
 * own core, so it does not compete with the server.
 */
export async function measureEndpoint(options: MeasureOptions): Promise<LoadResult> {
  const config = loadBenchConfig();
  const resolved: Required<MeasureOptions> = {
    url: options.url,
    headers: options.headers ?? {},
    durationSec: options.durationSec ?? config.durationSec,
    connections: options.connections ?? config.connections,
    tool: options.tool ?? detectLoadTool(config.tool),
    cpu: options.cpu === undefined ? config.loadCpu : options.cpu,
    method: options.method ?? 'GET',
    body: options.body ?? '',
  };
  return resolved.tool === 'wrk' ? runWrk(resolved) : runAutocannon(resolved);
}

/** Prints one machine-readable line when wrk finishes (latency figures are in microseconds). */
const WRK_REPORT = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("\\nBENCH_WRK {\\"requests\\":%d,\\"duration_us\\":%d,\\"p50_us\\":%d,\\"p99_us\\":%d,\\"connect\\":%d,\\"read\\":%d,\\"write\\":%d,\\"status\\":%d,\\"timeout\\":%d}\\n",
    summary.requests, summary.duration, math.floor(latency:percentile(50)), math.floor(latency:percentile(99)),
    e.connect, e.read, e.write, e.status, e.timeout))
end
`;

const wrkScripts = new Map<string, string>();

/** The report script, with the request's method and body set first when it is not a plain GET. */
function wrkScriptPath(method: string, body: string): string {
  const key = `${method} ${body}`;
  let path = wrkScripts.get(key);
  if (!path) {
    const dir = mkdtempSync(join(tmpdir(), 'pbx-api-bench-wrk-'));
    trackTempDir(dir);
    path = join(dir, 'report.lua');
    const request =
      method === 'GET' ? '' : `wrk.method = ${JSON.stringify(method)}\nwrk.body = ${JSON.stringify(body)}\nwrk.headers["Content-Type"] = "application/json"\n`;
    writeFileSync(path, request + WRK_REPORT);
    process.once('exit', () => removeTempDir(dir));
    wrkScripts.set(key, path);
  }
  return path;
}

interface WrkReport {
  requests: number;
  duration_us: number;
  p50_us: number;
  p99_us: number;
  connect: number;
  read: number;
  write: number;
  status: number;
  timeout: number;
}

async function runWrk(options: Required<MeasureOptions>): Promise<LoadResult> {
  const args = [
    '-t',
    '1',
    '-c',
    String(options.connections),
    '-d',
    `${options.durationSec}s`,
    '--timeout',
    '10s',
    '-s',
    wrkScriptPath(options.method, options.body),
  ];
  for (const [name, value] of Object.entries(options.headers)) args.push('-H', `${name}: ${value}`);
  args.push(options.url);
  const stdout = await runChild('wrk', args, process.env, options.cpu, (options.durationSec + 60) * 1000);
  const line = stdout.split('\n').find((l) => l.startsWith('BENCH_WRK '));
  if (!line) throw new Error(`wrk printed no report:\n${stdout}`);
  const report = JSON.parse(line.slice('BENCH_WRK '.length)) as WrkReport;
  const durationSec = report.duration_us / 1e6;
  return {
    tool: 'wrk',
    url: options.url,
    requests: report.requests,
    durationSec,
    rps: report.requests / durationSec,
    p50Ms: report.p50_us / 1000,
    p99Ms: report.p99_us / 1000,
    non2xx: report.status,
    errors: report.connect + report.read + report.write + report.timeout,
  };
}

interface AutocannonReport {
  requests: { total: number };
  latency: { p50: number; p99: number };
  duration: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

function autocannonBin(): string {
  return createRequire(import.meta.url).resolve('autocannon/autocannon.js');
}

async function runAutocannon(options: Required<MeasureOptions>): Promise<LoadResult> {
  const args = [autocannonBin(), '--json', '--no-progress', '-c', String(options.connections), '-p', '1', '-d', String(options.durationSec), '-t', '10'];
  for (const [name, value] of Object.entries(options.headers)) args.push('-H', `${name}=${value}`);
  if (options.method !== 'GET') args.push('-m', options.method, '-H', 'content-type=application/json', '-b', options.body);
  args.push(options.url);
  const stdout = await runChild(process.execPath, args, process.env, options.cpu, (options.durationSec + 60) * 1000);
  const start = stdout.indexOf('{');
  if (start < 0) throw new Error(`autocannon printed no JSON:\n${stdout}`);
  const report = JSON.parse(stdout.slice(start)) as AutocannonReport;
  return {
    tool: 'autocannon',
    url: options.url,
    requests: report.requests.total,
    durationSec: report.duration,
    rps: report.requests.total / report.duration,
    p50Ms: report.latency.p50,
    p99Ms: report.latency.p99,
    non2xx: report.non2xx,
    errors: report.errors + report.timeouts,
  };
}
