import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { DialectName } from '../../db/database.js';
import type { Clock } from '../clock.js';
import type { AppContext } from '../context.js';
import type { JobTable } from './jobs.tables.js';

export type JobRow = Selectable<JobTable>;
type Db = Kysely<DB> | Transaction<DB>;

/** What a running job can do besides its work: keep its lease, and notice a shutdown. */
export interface RunningJob {
  id: string;
  attempt: number;
  workerId: string;
  /** Extends the lease; false when another worker has taken the job over (stop at once). */
  heartbeat(): Promise<boolean>;
  /** Aborted when the worker stops; a job may throw JobInterrupted at a safe point. */
  signal: AbortSignal;
}

export interface JobDefinition<P> {
  kind: string;
  /** Attempts before the job is failed for good (default 5). */
  maxAttempts?: number;
  /** Seconds to wait before attempt `attempt + 1` (default 2^attempt * 5, at most an hour). */
  backoffSeconds?: (attempt: number) => number;
  run(ctx: AppContext, payload: P, job: RunningJob): Promise<void>;
  /** Called once when the last attempt failed, to record the failure where users see it. */
  onExhausted?(ctx: AppContext, payload: P, error: string): Promise<void>;
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
): JobDefinition<P> & { enqueue(db: Db, clock: Clock, payload: P, options?: EnqueueOptions): Promise<string> } {
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
export async function enqueueJob(db: Db, clock: Clock, kind: string, payload: unknown, options: EnqueueOptions = {}): Promise<string> {
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

/**
 * Claims one due job: a pending one whose time has come, or a running one whose lease expired
 * (its worker died). One statement, so two workers never claim the same job: PostgreSQL skips
 * rows another transaction has locked; SQLite runs the statement under its single writer lock.
 */
export async function claimJob(db: Kysely<DB>, dialect: DialectName, workerId: string, now: string, leaseUntil: string): Promise<JobRow | undefined> {
  const lock = dialect === 'postgres' ? sql`for update skip locked` : sql``;
  const result = await sql<JobRow>`
    update jobs set status = 'running', locked_by = ${workerId}, locked_until = ${leaseUntil}, attempts = attempts + 1, updated_at = ${now}
    where id = (
      select id from jobs
      where (status = 'pending' and run_at <= ${now}) or (status = 'running' and locked_until <= ${now})
      order by run_at, id
      limit 1
      ${lock}
    )
    returning *`.execute(db);
  return result.rows[0];
}

export interface WorkerOptions {
  workerId?: string;
  pollIntervalMs?: number;
  /** How long a claimed job belongs to this worker without a heartbeat. */
  leaseSeconds?: number;
  log?: { error(obj: object, msg: string): void; info?(obj: object, msg: string): void };
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
    await this.execute(job);
    return true;
  }

  private async execute(job: JobRow): Promise<void> {
    const definition = registry.get(job.kind);
    const payload: unknown = JSON.parse(job.payload);
    if (!definition) return this.finish(job, 'failed', `no handler for job kind ${job.kind}`);
    if (job.attempts > job.max_attempts) {
      // Its worker died during the last allowed attempt.
      const reason = job.last_error ?? 'the job was abandoned by its worker too many times';
      await this.finish(job, 'failed', reason);
      await definition.onExhausted?.(this.ctx, payload, reason);
      return;
    }
    const running: RunningJob = {
      id: job.id,
      attempt: job.attempts,
      workerId: this.workerId,
      signal: this.abort.signal,
      heartbeat: async () => {
        const result = await this.ctx.db
          .updateTable('jobs')
          .set({ locked_until: this.leaseEnd(), updated_at: this.ctx.clock.now().toISOString() })
          .where('id', '=', job.id)
          .where('locked_by', '=', this.workerId)
          .where('status', '=', 'running')
          .executeTakeFirst();
        return Number(result.numUpdatedRows) > 0;
      },
    };
    try {
      await definition.run(this.ctx, payload, running);
      await this.finish(job, 'completed', null);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
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
        await definition.onExhausted?.(this.ctx, payload, message);
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

export function findJob(db: Db, id: string) {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}
