import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { DialectName } from '../../db/database.js';
import type { Clock } from '../clock.js';
import type { AppContext } from '../context.js';
import type { JobTable } from './jobs.tables.js';
import type { Executor } from '../../db/database.js';

export type JobRow = Selectable<JobTable>;

/** Where a running job writes its lines: the worker's logger, each line naming the job. */
export interface JobLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** What a running job can do besides its work: keep its lease, and notice a shutdown. */
export interface RunningJob {
  id: string;
  attempt: number;
  workerId: string;
  /**
   * Extends the lease; false when another worker has taken the job over (stop at once: the worker
   * then records nothing of this run, whatever it returns or throws).
   */
  heartbeat(): Promise<boolean>;
  /** Aborted when the worker stops; a job may throw JobInterrupted at a safe point. */
  signal: AbortSignal;
  /** How long the lease lasts without a heartbeat: a long job beats at least every third of it. */
  leaseSeconds?: number;
  /** The worker's logger, with the job's id, kind and attempt on each line. */
  log?: JobLog;
}

export interface JobDefinition<P> {
  kind: string;
  /** Attempts before the job is failed for good (default 5). */
  maxAttempts?: number;
  /** Seconds to wait before attempt `attempt + 1` (default 2^attempt * 5, at most an hour). */
  backoffSeconds?: (attempt: number) => number;
  run(ctx: AppContext, payload: P, job: RunningJob): Promise<void>;
  /** Called once when the last attempt failed, to record the failure where users see it. */
  onExhausted?(ctx: AppContext, payload: P, error: string, log: JobLog): Promise<void>;
}

/** Thrown by a job that stopped early at a safe point because its worker is shutting down. */
export class JobInterrupted extends Error {
  constructor() {
    super('job interrupted by shutdown');
  }
}

const registry = new Map<string, JobDefinition<unknown>>();

/** Declares a kind of job; modules call it at import time, so every worker knows every kind. */
export function defineJob<P>(
  definition: JobDefinition<P>,
): JobDefinition<P> & { enqueue(db: Executor, clock: Clock, payload: P, options?: EnqueueOptions): Promise<string> } {
  registry.set(definition.kind, definition);
  return {
    ...definition,
    enqueue: (db, clock, payload, options) => enqueueJob(db, clock, definition.kind, payload, { maxAttempts: definition.maxAttempts, ...options }),
  };
}

export interface EnqueueOptions {
  /** Run no earlier than this. */
  runAt?: Date;
  maxAttempts?: number;
}

/** Adds a job; pass the transaction that writes the job's subject so both commit together. */
export async function enqueueJob(db: Executor, clock: Clock, kind: string, payload: unknown, options: EnqueueOptions = {}): Promise<string> {
  const now = clock.now().toISOString();
  const id = randomUUID();
  await db
    .insertInto('jobs')
    .values({
      id,
      kind,
      payload: JSON.stringify(payload),
      status: 'pending',
      attempts: 0,
      max_attempts: options.maxAttempts ?? 5,
      run_at: (options.runAt ?? clock.now()).toISOString(),
      locked_by: null,
      locked_until: null,
      last_error: null,
      created_at: now,
      updated_at: now,
      completed_at: null,
    })
    .execute();
  return id;
}

/** A claimed job, and whose lapsed lease it was taken from (null for a pending job). */
export type ClaimedJob = JobRow & { reclaimed_from: string | null; lapsed_at: string | null };

/**
 * Claims one due job: a pending one whose time has come, or a running one whose lease expired
 * (its worker died or stalled; `reclaimed_from` names that worker). Two workers never claim the
 * same job: on PostgreSQL one statement that skips rows another transaction has locked; on SQLite
 * (whose RETURNING cannot show the previous holder) the first due job is read, then taken by one
 * update that checks it is still due and still held as read, else the next is tried.
 */
export async function claimJob(db: Kysely<DB>, dialect: DialectName, workerId: string, now: string, leaseUntil: string): Promise<ClaimedJob | undefined> {
  const due = sql`((status = 'pending' and run_at <= ${now}) or (status = 'running' and locked_until <= ${now}))`;
  const take = sql`status = 'running', locked_by = ${workerId}, locked_until = ${leaseUntil}, attempts = attempts + 1, updated_at = ${now}`;
  if (dialect === 'postgres') {
    const result = await sql<ClaimedJob>`
      update jobs set ${take}
      from (select id as claimed_id, locked_by as previous_holder, locked_until as previous_until from jobs where ${due} order by run_at, id limit 1 for update skip locked) as claimed
      where jobs.id = claimed.claimed_id
      returning jobs.*, claimed.previous_holder as reclaimed_from, claimed.previous_until as lapsed_at`.execute(db);
    return result.rows[0];
  }
  for (let tries = 0; tries < 20; tries++) {
    const candidate = (
      await sql<{ id: string; locked_by: string | null; locked_until: string | null }>`
        select id, locked_by, locked_until from jobs where ${due} order by run_at, id limit 1`.execute(db)
    ).rows[0];
    if (!candidate) return undefined;
    const result = await sql<JobRow>`update jobs set ${take} where id = ${candidate.id} and ${due} and locked_by is ${candidate.locked_by} returning *`.execute(
      db,
    );
    const row = result.rows[0];
    if (row) return { ...row, reclaimed_from: candidate.locked_by, lapsed_at: candidate.locked_by === null ? null : candidate.locked_until };
  }
  return undefined;
}

export interface WorkerOptions {
  workerId?: string;
  pollIntervalMs?: number;
  /** How long a claimed job belongs to this worker without a heartbeat. */
  leaseSeconds?: number;
  log?: { error(obj: object, msg: string): void; warn?(obj: object, msg: string): void; info?(obj: object, msg: string): void };
}

const defaultBackoff = (attempt: number) => Math.min(3600, 5 * 2 ** attempt);

/**
 * Runs due jobs. Several workers (in one or several instances) share the table safely; a job left
 * running by a dead worker is claimed again when its lease runs out.
 */
export class JobWorker {
  readonly workerId: string;
  private readonly pollIntervalMs: number;
  private readonly leaseSeconds: number;
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private abort = new AbortController();
  private readonly inFlight = new Set<Promise<boolean>>();

  constructor(
    private readonly ctx: AppContext,
    options: WorkerOptions = {},
  ) {
    this.workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.leaseSeconds = options.leaseSeconds ?? 60;
    this.log = options.log;
  }
  private readonly log: WorkerOptions['log'];

  start(): void {
    if (this.running) return;
    this.running = true;
    this.abort = new AbortController();
    this.loop = (async () => {
      while (this.running) {
        let worked = false;
        try {
          worked = await this.runOnce();
        } catch (error) {
          this.log?.error({ err: error }, 'job worker error');
        }
        if (!worked && this.running)
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, this.pollIntervalMs);
            this.wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
      }
    })();
  }

  /** Stops polling; a job in progress is asked to stop at its next safe point and is awaited. */
  async stop(): Promise<void> {
    this.running = false;
    this.abort.abort();
    this.wake?.();
    await this.loop;
    this.loop = null;
  }

  /** Runs every job that is due now, one after another (tests and the CLI use it). */
  async drain(limit = 1000): Promise<number> {
    // A due job the background loop has just claimed is part of "every job due now": wait for it too.
    await this.settle();
    let count = 0;
    while (count < limit && (await this.runOnce())) count++;
    await this.settle();
    return count;
  }

  private async settle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private leaseEnd(): string {
    return new Date(this.ctx.clock.now().getTime() + this.leaseSeconds * 1000).toISOString();
  }

  /** Claims and runs one job; false when nothing was due. */
  runOnce(): Promise<boolean> {
    const run = this.claimAndRun();
    this.inFlight.add(run);
    const done = () => this.inFlight.delete(run);
    run.then(done, done);
    return run;
  }

  private async claimAndRun(): Promise<boolean> {
    const job = await claimJob(this.ctx.db, this.ctx.dialect, this.workerId, this.ctx.clock.now().toISOString(), this.leaseEnd());
    if (!job) return false;
    if (job.reclaimed_from !== null)
      this.log?.warn?.(
        { job: job.id, kind: job.kind, attempt: job.attempts, worker: this.workerId, previous_holder: job.reclaimed_from, lapsed_at: job.lapsed_at },
        'job reclaimed: the lease of the worker running it lapsed',
      );
    await this.execute(job);
    return true;
  }

  /** The worker's logger with the job named on every line (nothing when the worker has none). */
  private jobLog(job: JobRow): JobLog {
    const fields = { job: job.id, kind: job.kind, attempt: job.attempts, worker: this.workerId };
    return {
      info: (obj, msg) => this.log?.info?.({ ...fields, ...obj }, msg),
      warn: (obj, msg) => this.log?.warn?.({ ...fields, ...obj }, msg),
    };
  }

  private async execute(job: JobRow): Promise<void> {
    const definition = registry.get(job.kind);
    const payload: unknown = JSON.parse(job.payload);
    const log = this.jobLog(job);
    if (!definition) return this.finish(job, 'failed', `no handler for job kind ${job.kind}`);
    if (job.attempts > job.max_attempts) {
      // Its worker died during the last allowed attempt.
      const reason = job.last_error ?? 'the job was abandoned by its worker too many times';
      await this.finish(job, 'failed', reason);
      await definition.onExhausted?.(this.ctx, payload, reason, log);
      return;
    }
    // Set once a heartbeat finds the job taken over: from then on this run records nothing.
    let lost = false;
    const running: RunningJob = {
      id: job.id,
      attempt: job.attempts,
      workerId: this.workerId,
      signal: this.abort.signal,
      leaseSeconds: this.leaseSeconds,
      log,
      heartbeat: async () => {
        const result = await this.ctx.db
          .updateTable('jobs')
          .set({ locked_until: this.leaseEnd(), updated_at: this.ctx.clock.now().toISOString() })
          .where('id', '=', job.id)
          .where('locked_by', '=', this.workerId)
          .where('status', '=', 'running')
          .executeTakeFirst();
        const held = Number(result.numUpdatedRows) > 0;
        if (!held && !lost) log.warn({}, 'job lease lost: another worker took the job over; this run stops and records nothing');
        lost ||= !held;
        return held;
      },
    };
    try {
      await definition.run(this.ctx, payload, running);
      if (lost) return log.warn({}, 'job run ended after its lease was lost; its outcome is not recorded');
      await this.finish(job, 'completed', null);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (lost) return log.warn({ reason: message.slice(0, 500) }, 'job run ended after its lease was lost; its outcome is not recorded');
      if (error instanceof JobInterrupted) {
        // Hand it back at once, without counting the attempt.
        await this.ctx.db
          .updateTable('jobs')
          .set({ status: 'pending', attempts: job.attempts - 1, locked_by: null, locked_until: null, updated_at: this.ctx.clock.now().toISOString() })
          .where('id', '=', job.id)
          .where('locked_by', '=', this.workerId)
          .execute();
        return;
      }
      this.log?.error({ err: error, job: job.id, kind: job.kind, attempt: job.attempts }, 'job failed');
      if (job.attempts >= job.max_attempts) {
        await this.finish(job, 'failed', message);
        await definition.onExhausted?.(this.ctx, payload, message, log);
      } else {
        const backoff = (definition.backoffSeconds ?? defaultBackoff)(job.attempts);
        await this.ctx.db
          .updateTable('jobs')
          .set({
            status: 'pending',
            run_at: new Date(this.ctx.clock.now().getTime() + backoff * 1000).toISOString(),
            locked_by: null,
            locked_until: null,
            last_error: message.slice(0, 2000),
            updated_at: this.ctx.clock.now().toISOString(),
          })
          .where('id', '=', job.id)
          .where('locked_by', '=', this.workerId)
          .execute();
      }
    }
  }

  private async finish(job: JobRow, status: 'completed' | 'failed', error: string | null): Promise<void> {
    const now = this.ctx.clock.now().toISOString();
    await this.ctx.db
      .updateTable('jobs')
      .set({ status, locked_by: null, locked_until: null, last_error: error?.slice(0, 2000) ?? null, completed_at: now, updated_at: now })
      .where('id', '=', job.id)
      .where('locked_by', '=', this.workerId)
      .execute();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's background job worker (started with the app unless JOB_WORKER=false). */
    jobs: JobWorker;
  }
}

export function findJob(db: Executor, id: string) {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}
