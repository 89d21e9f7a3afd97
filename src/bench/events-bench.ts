/**
 * Live events at size (#37): 1,000 open Server-Sent Events streams on one instance. The server is
 * this process (the app as `serve` builds it, production settings, on a fresh SQLite file or
 * PostgreSQL schema), so it can read its own memory; the 1,000 clients are a child process of this
 * file (`--clients`), pinned to the load core. Reported: the memory each open stream costs the
 * server (RSS and heap after a GC, before and after opening them, over 1,000), and for each of a
 * series of events published one after another, the time from its transaction's commit to its
 * arrival at the 1,000th client (p50/p99; the first client's too, and when the server had handed it
 * to every stream, the server's own part). Both processes read one clock
 * (`performance.timeOrigin + performance.now()`). A note, not a gate.
 *
 * `npm run bench` runs it as an optional step (OPTIONAL_STEP_MODULES); alone:
 * `node dist/bench/events-bench.js [--postgres URL] [--streams 1000] [--events 200] [--client-cpu N]`
 * (or `npx tsx src/bench/events-bench.ts …`).
 */
import { execFile, fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Type } from '@sinclair/typebox';
import { buildApp, type App } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase, type Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { createApiKey } from '../platform/auth/api-keys.js';
import { defineEventKind, resumeFrom } from '../platform/events/index.js';
import { insertPbx } from '../platform/tenancy.js';
import { createBenchSchema, type BenchSchema } from './postgres.js';
import type { StepContext, StepFigures } from './scenarios.js';
import { round } from './stats.js';

const STREAMS = 1000;
const EVENTS = 200;

const pinged = defineEventKind({
  kind: 'bench_events.pinged',
  subject: 'widget',
  description: 'A benchmark event.',
  data: Type.Object({ n: Type.Integer() }),
  pbxKey: true,
});

const now = () => performance.timeOrigin + performance.now();

/** Messages of the clients' process. */
type ClientMessage = { type: 'ready'; open: number } | { type: 'arrived'; id: number; first: number; last: number } | { type: 'failed'; error: string };

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** `global.gc`, exposed at run time when node was not started with --expose-gc. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

function memory(gc: () => void): { rss: number; heap: number } {
  for (let i = 0; i < 3; i++) gc();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heap: heapUsed };
}

interface BenchDatabase {
  database: Database;
  env: NodeJS.ProcessEnv;
  drop: () => Promise<void>;
}

async function benchDatabase(postgresUrl: string | null): Promise<BenchDatabase> {
  if (postgresUrl) {
    const schema: BenchSchema = await createBenchSchema(postgresUrl);
    const database = openDatabase({ url: schema.serverUrl, poolSize: 10 });
    return { database, env: { DATABASE_URL: schema.serverUrl }, drop: () => schema.drop() };
  }
  const dir = mkdtempSync(join(tmpdir(), 'pbx-events-bench-'));
  const database = openDatabase({ sqlitePath: join(dir, 'bench.sqlite') });
  return { database, env: { SQLITE_PATH: join(dir, 'bench.sqlite') }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

export interface LiveEventsFigures {
  streams: number;
  events: number;
  rss_per_stream_kib: number;
  heap_per_stream_kib: number;
  last_p50_ms: number;
  last_p99_ms: number;
  first_p50_ms: number;
  first_p99_ms: number;
  /** Commit to the bus having handed the event to every stream (framed and written to each connection's buffer). */
  handed_p50_ms: number;
  handed_p99_ms: number;
}

/** The measurement: a server here, `streams` clients in a child, `events` events one after another. */
export async function measureLiveEvents(options: {
  postgresUrl: string | null;
  streams?: number;
  events?: number;
  clientCpu?: number | null;
}): Promise<LiveEventsFigures> {
  const streams = options.streams ?? STREAMS;
  const events = options.events ?? EVENTS;
  const gc = collector();
  const { database, env, drop } = await benchDatabase(options.postgresUrl);
  let app: App | undefined;
  let clients: ChildProcess | undefined;
  try {
    await migrateToLatest(database.db);
    const config = loadConfig({
      NODE_ENV: 'production',
      SECRET_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'silent',
      JOB_WORKER: 'false',
      AMI_EVENTS: 'false',
      RATE_LIMIT_PER_MINUTE: '100000000',
      HOST: '127.0.0.1',
      ...env,
    });
    app = await buildApp({ config, database });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const ctx = app.ctx;
    const pbx = await insertPbx(ctx.db, ctx.clock, { name: 'Live events bench', countryCode: 'LU' });
    const { token } = await createApiKey(ctx.db, ctx.clock, ctx.secrets, { pbxId: pbx.id, kind: 'pbx', name: 'bench' });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1/events/stream`;

    const before = memory(gc);
    clients = startClients(url, token, streams, options.clientCpu ?? null);
    const inbox = messages(clients);
    const ready = await inbox.next('ready');
    if (ready.type !== 'ready' || ready.open !== streams) throw new Error(`only ${ready.type === 'ready' ? ready.open : 0} of ${streams} streams opened`);
    // Every stream subscribed on the bus, so the first event finds them all.
    while ((ctx.events.subscriptions().get(pbx.id) ?? 0) < streams) await new Promise((resolve) => setTimeout(resolve, 10));
    const after = memory(gc);
    // Subscribed after every stream, so the bus hands it each event after all of them: when the server's own part ended.
    const handed = new Map<number, number>();
    const { afterSeq } = await resumeFrom(ctx.db, pbx.id, null);
    const marker = ctx.events.subscribe(pbx.id, afterSeq, (batch) => {
      for (const event of batch) handed.set(event.seq, now());
    });

    const last: number[] = [];
    const first: number[] = [];
    const fanOut: number[] = [];
    for (let n = 1; n <= events; n++) {
      const seq = await ctx.events.publish(ctx.db, {
        pbxId: pbx.id,
        kind: pinged,
        subject: { type: 'widget', id: `w${n}` },
        audience: { scope: 'tenant' },
        data: { n },
      });
      // publish() has committed its own transaction when it returns.
      const committed = now();
      const arrived = await inbox.next('arrived');
      if (arrived.type !== 'arrived' || arrived.id !== seq) throw new Error(`event ${seq}: the clients answered ${JSON.stringify(arrived)}`);
      last.push(arrived.last - committed);
      first.push(arrived.first - committed);
      fanOut.push((handed.get(seq) ?? Number.NaN) - committed);
    }
    marker.close();
    // The first events warm the code paths up; the rest are measured.
    const measured = (values: number[]) => values.slice(Math.min(10, Math.floor(values.length / 10)));
    return {
      streams,
      events,
      rss_per_stream_kib: round((after.rss - before.rss) / streams / 1024, 1),
      heap_per_stream_kib: round((after.heap - before.heap) / streams / 1024, 1),
      last_p50_ms: round(percentile(measured(last), 50)),
      last_p99_ms: round(percentile(measured(last), 99)),
      first_p50_ms: round(percentile(measured(first), 50)),
      first_p99_ms: round(percentile(measured(first), 99)),
      handed_p50_ms: round(percentile(measured(fanOut), 50)),
      handed_p99_ms: round(percentile(measured(fanOut), 99)),
    };
  } finally {
    clients?.kill();
    await app?.close();
    await database.close();
    await drop();
  }
}

function startClients(url: string, token: string, streams: number, cpu: number | null): ChildProcess {
  const args = ['--clients', url, token, String(streams)];
  // The same file in the clients' process, with this process's loader (tsx when run from src/).
  const child = fork(fileURLToPath(import.meta.url), args, { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  // Pinned to the load core where taskset exists; without it, unpinned.
  if (cpu !== null && child.pid) execFile('taskset', ['-p', '-c', String(cpu), String(child.pid)], () => undefined);
  return child;
}

/** The child's messages in order, each awaited by type. */
function messages(child: ChildProcess) {
  const queue: ClientMessage[] = [];
  const waiting: Array<(message: ClientMessage) => void> = [];
  let exited: Error | null = null;
  child.on('message', (message: ClientMessage) => {
    const taker = waiting.shift();
    if (taker) taker(message);
    else queue.push(message);
  });
  child.on('exit', (code) => {
    exited = new Error(`the clients' process exited (${code})`);
    for (const taker of waiting.splice(0)) taker({ type: 'failed', error: exited.message });
  });
  return {
    async next(type: ClientMessage['type']): Promise<ClientMessage> {
      const message =
        queue.shift() ?? (exited ? { type: 'failed' as const, error: exited.message } : await new Promise<ClientMessage>((resolve) => waiting.push(resolve)));
      if (message.type === 'failed') throw new Error(message.error);
      if (message.type !== type) throw new Error(`expected ${type} from the clients, got ${JSON.stringify(message)}`);
      return message;
    },
  };
}

/** The clients' process: `streams` streams; for each event id, when it reached the first and the last of them. */
function runClients(url: string, token: string, streams: number): void {
  const send = (message: ClientMessage) => process.send?.(message);
  const arrivals = new Map<number, { count: number; first: number; last: number }>();
  let open = 0;
  const arrived = (id: number) => {
    const at = now();
    const seen = arrivals.get(id) ?? { count: 0, first: at, last: at };
    seen.count++;
    seen.last = at;
    arrivals.set(id, seen);
    if (seen.count === streams) {
      arrivals.delete(id);
      send({ type: 'arrived', id, first: seen.first, last: seen.last });
    }
  };
  for (let i = 0; i < streams; i++) {
    const req = request(url, { agent: false, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } }, (response) => {
      if (response.statusCode !== 200) {
        send({ type: 'failed', error: `stream ${i}: HTTP ${response.statusCode}` });
        return;
      }
      let pending = '';
      let opened = false;
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        pending += chunk;
        let end: number;
        while ((end = pending.indexOf('\n\n')) >= 0) {
          const frame = pending.slice(0, end);
          pending = pending.slice(end + 2);
          if (!opened) {
            opened = true;
            if (++open === streams) send({ type: 'ready', open });
          }
          if (frame.startsWith('id: ')) arrived(Number(frame.slice(4, frame.indexOf('\n'))));
        }
      });
    });
    req.on('error', (error) => send({ type: 'failed', error: `stream ${i}: ${error.message}` }));
    req.end();
  }
}

/** The benchmark step: the server of this run is not used; this step brings its own, on the run's database kind. */
export async function benchLiveEvents(ctx: StepContext): Promise<StepFigures> {
  const postgresUrl = ctx.server.dialect === 'postgres' ? ctx.config.postgresUrl : null;
  const figures = await measureLiveEvents({ postgresUrl, clientCpu: ctx.config.loadCpu });
  ctx.log(
    `${figures.streams} streams: commit to the last subscriber p50 ${figures.last_p50_ms} ms, p99 ${figures.last_p99_ms} ms ` +
      `(first ${figures.first_p50_ms} / ${figures.first_p99_ms} ms; handed to every stream ${figures.handed_p50_ms} / ${figures.handed_p99_ms} ms); ` +
      `${figures.rss_per_stream_kib} KiB RSS, ${figures.heap_per_stream_kib} KiB heap per stream`,
  );
  return { ...figures };
}

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === '--clients') {
    runClients(process.argv[3], process.argv[4], Number(process.argv[5]));
  } else {
    const postgresUrl = option('--postgres') ?? null;
    const clientCpu = option('--client-cpu');
    measureLiveEvents({
      postgresUrl,
      streams: Number(option('--streams') ?? STREAMS),
      events: Number(option('--events') ?? EVENTS),
      clientCpu: clientCpu === undefined ? null : Number(clientCpu),
    }).then(
      (figures) => {
        console.log(JSON.stringify({ database: postgresUrl ? 'postgres' : 'sqlite', ...figures }));
        process.exit(0);
      },
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  }
}
