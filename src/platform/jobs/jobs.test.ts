import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers.js';
import { claimJob, defineJob, findJob, JobInterrupted, JobWorker, type WorkerOptions } from './jobs.js';

const runs: Array<{ id: string; worker: string }> = [];
const failures = new Map<string, number>();
const exhausted: string[] = [];

const recordJob = defineJob<{ name: string }>({
  kind: 'test.record',
  async run(_ctx, payload, job) {
    runs.push({ id: payload.name, worker: job.workerId });
  },
});
const flakyJob = defineJob<{ name: string; failTimes: number }>({
  kind: 'test.flaky',
  maxAttempts: 3,
  backoffSeconds: (attempt) => 10 * attempt,
  async run(_ctx, payload) {
    const failed = failures.get(payload.name) ?? 0;
    if (failed < payload.failTimes) {
      failures.set(payload.name, failed + 1);
      throw new Error(`boom ${failed + 1}`);
    }
    runs.push({ id: payload.name, worker: 'flaky' });
  },
  async onExhausted(_ctx, payload, error) {
    exhausted.push(`${payload.name}: ${error}`);
  },
});
/** A job whose worker stalls: another takes it over mid-run, which its heartbeat then reports. */
const overtakenJob = defineJob<{ name: string }>({
  kind: 'test.overtaken',
  async run(ctx, _payload, job) {
    await ctx.db.updateTable('jobs').set({ locked_by: 'usurper' }).where('id', '=', job.id).execute();
    if (await job.heartbeat()) throw new Error('the heartbeat should have reported the takeover');
  },
});
const politeJob = defineJob<{ name: string }>({
  kind: 'test.polite',
  async run(_ctx, _payload, job) {
    if (job.signal.aborted) throw new JobInterrupted();
  },
});

describe('durable jobs', () => {
  const t = useTestApp({ config: { jobWorkerEnabled: false } });

  it('runs an enqueued job once and marks it completed', async () => {
    const id = await recordJob.enqueue(t.ctx.db, t.clock, { name: 'once' });
    expect((await findJob(t.ctx.db, id))?.status).toBe('pending');
    expect(await t.app.jobs.drain()).toBe(1);
    expect(runs.filter((r) => r.id === 'once')).toHaveLength(1);
    expect(await findJob(t.ctx.db, id)).toMatchObject({ status: 'completed', attempts: 1, locked_by: null });
    expect(await t.app.jobs.drain()).toBe(0);
  });

  it('waits for run_at', async () => {
    const id = await recordJob.enqueue(t.ctx.db, t.clock, { name: 'later' }, { runAt: new Date(t.clock.now().getTime() + 60_000) });
    expect(await t.app.jobs.drain()).toBe(0);
    t.clock.advance(61);
    expect(await t.app.jobs.drain()).toBe(1);
    expect((await findJob(t.ctx.db, id))?.status).toBe('completed');
  });

  it('retries a failing job with backoff, then gives up and reports it', async () => {
    const recovering = await flakyJob.enqueue(t.ctx.db, t.clock, { name: 'recovers', failTimes: 1 });
    await t.app.jobs.drain();
    const afterFirst = await findJob(t.ctx.db, recovering);
    expect(afterFirst).toMatchObject({ status: 'pending', attempts: 1, last_error: 'boom 1' });
    expect(new Date(afterFirst!.run_at).getTime() - t.clock.now().getTime()).toBe(10_000);
    expect(await t.app.jobs.drain()).toBe(0);
    t.clock.advance(10);
    await t.app.jobs.drain();
    expect(await findJob(t.ctx.db, recovering)).toMatchObject({ status: 'completed', attempts: 2 });

    const hopeless = await flakyJob.enqueue(t.ctx.db, t.clock, { name: 'hopeless', failTimes: 99 });
    for (let i = 0; i < 3; i++) {
      await t.app.jobs.drain();
      t.clock.advance(60);
    }
    expect(await findJob(t.ctx.db, hopeless)).toMatchObject({ status: 'failed', attempts: 3, last_error: 'boom 3' });
    expect(exhausted).toEqual(['hopeless: boom 3']);
  });

  it('never gives one job to two workers', async () => {
    const names = Array.from({ length: 30 }, (_, i) => `parallel-${i}`);
    for (const name of names) await recordJob.enqueue(t.ctx.db, t.clock, { name });
    const workers = [new JobWorker(t.ctx, { workerId: 'w1' }), new JobWorker(t.ctx, { workerId: 'w2' }), new JobWorker(t.ctx, { workerId: 'w3' })];
    const counts = await Promise.all(workers.map((w) => w.drain()));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(30);
    const ran = runs.filter((r) => r.id.startsWith('parallel-')).map((r) => r.id);
    expect(ran.sort()).toEqual([...names].sort());
  });

  it('reclaims a job whose worker died once its lease expires', async () => {
    const id = await recordJob.enqueue(t.ctx.db, t.clock, { name: 'orphan' });
    const now = t.clock.now().toISOString();
    const lease = new Date(t.clock.now().getTime() + 60_000).toISOString();
    const claimed = await claimJob(t.ctx.db, t.ctx.dialect, 'dead-worker', now, lease);
    expect(claimed).toMatchObject({ id, status: 'running', locked_by: 'dead-worker', attempts: 1 });
    // The dead worker never finishes it; nobody else may take it while the lease holds.
    const survivor = new JobWorker(t.ctx, { workerId: 'survivor', leaseSeconds: 60 });
    expect(await survivor.drain()).toBe(0);
    t.clock.advance(61);
    expect(await survivor.drain()).toBe(1);
    expect(runs.filter((r) => r.id === 'orphan')).toEqual([{ id: 'orphan', worker: 'survivor' }]);
    expect(await findJob(t.ctx.db, id)).toMatchObject({ status: 'completed', attempts: 2 });
  });

  it('logs a reclaimed job with the worker whose lease lapsed, and records nothing of a run that lost its job', async () => {
    const lines: Array<{ level: string; msg: string } & Record<string, unknown>> = [];
    const log = Object.fromEntries(
      (['error', 'warn', 'info'] as const).map((level) => [level, (obj: object, msg: string) => void lines.push({ level, msg, ...obj })]),
    ) as Required<NonNullable<WorkerOptions['log']>>;
    const id = await recordJob.enqueue(t.ctx.db, t.clock, { name: 'stalled' });
    const lapsed = new Date(t.clock.now().getTime() + 60_000).toISOString();
    await claimJob(t.ctx.db, t.ctx.dialect, 'stalled-worker', t.clock.now().toISOString(), lapsed);
    t.clock.advance(61);
    const rescuer = new JobWorker(t.ctx, { workerId: 'rescuer', log });
    expect(await rescuer.drain()).toBe(1);
    expect(lines).toEqual([
      {
        level: 'warn',
        msg: 'job reclaimed: the lease of the worker running it lapsed',
        job: id,
        kind: 'test.record',
        attempt: 2,
        worker: 'rescuer',
        previous_holder: 'stalled-worker',
        lapsed_at: lapsed,
      },
    ]);

    lines.length = 0;
    const overtaken = await overtakenJob.enqueue(t.ctx.db, t.clock, { name: 'overtaken' });
    expect(await rescuer.drain()).toBe(1);
    // The usurper's claim stands: the run that lost the job recorded no outcome.
    expect(await findJob(t.ctx.db, overtaken)).toMatchObject({ status: 'running', locked_by: 'usurper', completed_at: null });
    expect(lines.map((line) => [line.level, line.msg, line.job, line.worker])).toEqual([
      ['warn', 'job lease lost: another worker took the job over; this run stops and records nothing', overtaken, 'rescuer'],
      ['warn', 'job run ended after its lease was lost; its outcome is not recorded', overtaken, 'rescuer'],
    ]);
    await t.ctx.db.deleteFrom('jobs').where('id', '=', overtaken).execute();
  });

  it('hands an interrupted job back without counting the attempt', async () => {
    const id = await politeJob.enqueue(t.ctx.db, t.clock, { name: 'polite' });
    const worker = new JobWorker(t.ctx, { workerId: 'stopping' });
    await worker.stop(); // aborts its signal; the job notices at its first safe point
    expect(await worker.drain(1)).toBe(1);
    expect(await findJob(t.ctx.db, id)).toMatchObject({ status: 'pending', attempts: 0, locked_by: null });
    await t.app.jobs.drain();
    expect((await findJob(t.ctx.db, id))?.status).toBe('completed');
  });

  it('starts and stops its polling loop', async () => {
    const worker = new JobWorker(t.ctx, { workerId: 'looper', pollIntervalMs: 5 });
    const id = await recordJob.enqueue(t.ctx.db, t.clock, { name: 'looped' });
    worker.start();
    for (let i = 0; i < 200 && (await findJob(t.ctx.db, id))?.status !== 'completed'; i++) await new Promise((r) => setTimeout(r, 5));
    await worker.stop();
    expect((await findJob(t.ctx.db, id))?.status).toBe('completed');
  });
});
