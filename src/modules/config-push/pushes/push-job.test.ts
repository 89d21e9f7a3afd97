import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../../app.js';
import { loadConfig } from '../../../config.js';
import type { Clock } from '../../../platform/clock.js';
import { defineJob, findJob, JobWorker, type RunningJob } from '../../../platform/jobs/jobs.js';
import { acquireLease } from '../../../platform/leases.js';
import { bearer, MemoryMailer, TEST_BASE_URL } from '../../../../test/helpers.js';
import { createAdmin, createSipDevice, createTenant, createUser, type TestTenant } from '../../../../test/factories.js';
import { openTestDatabase } from '../../../../test/database.js';
import { ConfigurationRefused, deliverConfiguration } from '../../calls/index.js';
import { findVersionById, updateVersionIf } from '../versions/versions.queries.js';
import { deliverPush, pushJob, pushLeaseName } from './push-job.js';
import { PushTurnLost } from './push-lease.js';

/** Real time (the lease renewals run on real timers), moved forward on demand (back-offs). */
class FollowingClock implements Clock {
  private offset = 0;
  now(): Date {
    return new Date(this.nowMs());
  }
  nowMs(): number {
    return Date.now() + this.offset;
  }
  advance(seconds: number): void {
    this.offset += seconds * 1000;
  }
}

/** Who started writing files, in order. */
const deliveries: string[] = [];
/** What a delivery does once its files are about to be written: a test holds it there. */
let hold: (runner: string) => Promise<void> = async () => undefined;
/** A refusal the PBX answers a runner with, after the hold. */
let refusal: (runner: string) => string | null = () => null;

/** The engine's delivery, held (and maybe refused) between its status `delivering` and the files. */
const heldDelivery =
  (runner: string): typeof deliverConfiguration =>
  (ctx, tenant, delivery, hooks) =>
    deliverConfiguration(ctx, tenant, delivery, {
      ...hooks,
      onDelivering: async (engine) => {
        await hooks.onDelivering(engine);
        deliveries.push(runner);
        await hold(runner);
        const answer = refusal(runner);
        if (answer) throw new ConfigurationRefused(answer);
      },
    });

/** The push job as it runs, with a delivery the test holds. */
const heldPushJob = defineJob<{ pbxId: string; pushId: string }>({
  kind: 'test.config_push.held',
  maxAttempts: 3,
  backoffSeconds: (attempt) => 15 * attempt,
  run: (ctx, payload, job) => deliverPush(ctx, payload, job.id, { job, deliver: heldDelivery(job.workerId) }),
  onExhausted: (ctx, payload, error, log) => pushJob.onExhausted!(ctx, payload, error, log),
});

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('configuration push job: leases while delivering', () => {
  let app: App;
  let close: () => Promise<void>;
  const clock = new FollowingClock();
  const lines: string[] = [];
  const logged = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

  beforeAll(async () => {
    const database = await openTestDatabase();
    const config = loadConfig({
      NODE_ENV: 'test',
      BASE_URL: TEST_BASE_URL,
      DATA_DIR: '/tmp/pbx-api-test',
      JOB_WORKER: 'false',
      AMI_EVENTS: 'false',
      JOB_LEASE_SECONDS: '2',
    });
    app = await buildApp({
      config,
      database,
      clock,
      mailer: new MemoryMailer(),
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
    });
    await app.ready();
    close = async () => {
      await app.close();
      await database.close();
    };
  });
  afterAll(() => close());
  beforeEach(() => {
    deliveries.length = 0;
    hold = async () => undefined;
    refusal = () => null;
  });

  const worker = (workerId: string, leaseSeconds: number) => new JobWorker(app.ctx, { workerId, leaseSeconds, log: app.log });

  /** A pushed version of a new tenant, delivered by the held job only (the push's own job is removed). */
  async function pushed(prepare: (tenant: TestTenant) => Promise<unknown> = async () => undefined) {
    const tenant = await createTenant(app.ctx);
    const admin = await createAdmin(app.ctx, tenant);
    await prepare(tenant);
    const answer = await app.inject({ method: 'POST', url: '/api/v1/pbx/configuration/push', headers: bearer(admin.token) });
    expect(answer.statusCode).toBe(202);
    const push = answer.json<{ data: { id: string; version: number } }>().data;
    const row = await findVersionById(app.ctx.db, tenant, push.id);
    await app.ctx.db.deleteFrom('jobs').where('id', '=', row!.job_id!).execute();
    const jobId = await heldPushJob.enqueue(app.ctx.db, app.ctx.clock, { pbxId: tenant.pbxId, pushId: push.id });
    return { tenant, admin, push, jobId, version: () => findVersionById(app.ctx.db, tenant, push.id) };
  }

  const pushLease = (pbxId: string) => app.ctx.db.selectFrom('leases').selectAll().where('name', '=', pushLeaseName(pbxId)).executeTakeFirst();

  it('keeps the job lease and the PBX push lease through a delivery slower than the lease', async () => {
    const { tenant, push, jobId, version } = await pushed();
    const holder = `config-push-job:${jobId}:instance-a:1`;
    // The delivery is held for 4.5 s, more than twice the 2-second lease; the test looks on meanwhile.
    const held = deferred();
    const release = deferred();
    hold = async (runner) => {
      if (runner !== 'instance-a') return;
      held.resolve();
      await release.promise;
    };
    const a = worker('instance-a', 2);
    const b = worker('instance-b', 2);
    const running = a.runOnce();
    await held.promise;
    const renewals = new Set<string>();
    let polls = 0;
    try {
      for (const start = Date.now(); Date.now() - start < 4500; polls++) {
        const now = clock.now().toISOString();
        // Another instance finds nothing due, and cannot take the PBX as another holder of the same job.
        expect(await b.runOnce()).toBe(false);
        expect(await acquireLease(app.ctx.db, pushLeaseName(tenant.pbxId), `config-push-job:${jobId}:instance-b:2`, now, now)).toBe(false);
        const job = await findJob(app.ctx.db, jobId);
        const lease = await pushLease(tenant.pbxId);
        expect(job).toMatchObject({ status: 'running', locked_by: 'instance-a', attempts: 1 });
        expect(job!.locked_until! > now).toBe(true);
        expect(lease).toMatchObject({ holder });
        expect(lease!.expires_at > now).toBe(true);
        renewals.add(`${job!.locked_until}|${lease!.expires_at}`);
        await sleep(150);
      }
    } finally {
      release.resolve();
    }
    expect(await running).toBe(true);
    expect(polls).toBeGreaterThanOrEqual(5);
    // Renewed every third of the lease: 4.5 s of delivery saw several new expiries of both leases.
    expect(renewals.size).toBeGreaterThanOrEqual(3);
    expect(deliveries).toEqual(['instance-a']);
    expect(await version()).toMatchObject({ status: 'done', engine: 'simulated', reason: null });
    expect(await findJob(app.ctx.db, jobId)).toMatchObject({ status: 'completed', attempts: 1, locked_by: null });
    expect(await pushLease(tenant.pbxId)).toBeUndefined();

    const entries = logged().filter((entry) => entry.push_id === push.id);
    expect(entries.filter((entry) => entry.to).map((entry) => [entry.level, entry.pbx_id, entry.version, entry.from, entry.to])).toEqual([
      [30, tenant.pbxId, push.version, 'queued', 'delivering'],
      [30, tenant.pbxId, push.version, 'delivering', 'reloading'],
      [30, tenant.pbxId, push.version, 'reloading', 'done'],
    ]);
    expect(entries.find((entry) => entry.to === 'done')).toMatchObject({
      job: jobId,
      kind: 'test.config_push.held',
      msg: `configuration push: version ${push.version} reloading → done`,
    });
    expect(logged().filter((entry) => entry.job === jobId && entry.level === 40)).toEqual([]);
  });

  it('refuses the PBX to a second holder of the same job while the first one delivers; the first stops once its job is taken over', async () => {
    const { tenant, push, jobId, version } = await pushed();
    const aHolds = deferred();
    const aWaits = deferred();
    hold = async (runner) => {
      if (runner !== 'instance-a') return;
      aWaits.resolve();
      await aHolds.promise;
    };
    // Leases far longer than the test: only what the test does makes them lapse.
    const a = worker('instance-a', 60);
    const b = worker('instance-b', 60);
    const first = a.runOnce();
    await aWaits.promise;
    expect((await version())?.status).toBe('delivering');

    // Instance A stalls past its job lease (its PBX lease still holds): B reclaims the job...
    await app.ctx.db.updateTable('jobs').set({ locked_until: clock.now().toISOString() }).where('id', '=', jobId).execute();
    expect(await b.runOnce()).toBe(true);
    // ...but may not deliver to the PBX while A's lease on it is live: the job waits for its next attempt.
    expect(deliveries).toEqual(['instance-a']);
    expect(await findJob(app.ctx.db, jobId)).toMatchObject({
      status: 'pending',
      attempts: 2,
      locked_by: null,
      last_error: 'Another push of this PBX was being delivered; this one waits for its turn.',
    });
    expect((await version())?.status).toBe('delivering');

    // A resumes, learns at its next safe point that its job was taken over, and records nothing.
    aHolds.resolve();
    expect(await first).toBe(true);
    expect(await version()).toMatchObject({ status: 'delivering', finished_at: null });
    expect(await pushLease(tenant.pbxId)).toBeUndefined();

    clock.advance(31);
    expect(await b.drain()).toBe(1);
    expect(deliveries).toEqual(['instance-a', 'instance-b']);
    expect(await version()).toMatchObject({ status: 'done', reason: null });
    expect(await findJob(app.ctx.db, jobId)).toMatchObject({ status: 'completed', attempts: 3 });

    const entries = logged();
    expect(entries).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: 'job reclaimed: the lease of the worker running it lapsed',
        job: jobId,
        kind: 'test.config_push.held',
        previous_holder: 'instance-a',
        worker: 'instance-b',
        attempt: 2,
      }),
    );
    expect(entries).toContainEqual(
      expect.objectContaining({
        level: 30,
        msg: 'configuration push waits: another delivery holds the PBX push lease',
        pbx_id: tenant.pbxId,
        push_id: push.id,
        holder: `config-push-job:${jobId}:instance-a:1`,
        worker: 'instance-b',
      }),
    );
    expect(entries).toContainEqual(expect.objectContaining({ level: 40, msg: expect.stringMatching(/^job lease lost/), job: jobId, worker: 'instance-a' }));
    expect(entries).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: expect.stringMatching(/^configuration push lost its turn/),
        push_id: push.id,
        reason: 'another worker took the job over',
        worker: 'instance-a',
      }),
    );
    // A recorded nothing after losing the job: its only status change is the one before it stalled.
    const changes = entries
      .filter((entry) => entry.push_id === push.id && entry.to)
      .map((entry) => `${String(entry.worker)}: ${String(entry.from)} → ${String(entry.to)}`);
    expect(changes).toEqual([
      'instance-a: queued → delivering',
      'instance-b: delivering → delivering',
      'instance-b: delivering → reloading',
      'instance-b: reloading → done',
    ]);
  });

  it.each([
    ['finishes', null],
    ['is refused', 'Writing queues.conf: the PBX answered Given category does not exist.'],
  ])('never lets a stale delivery that %s overwrite the status another delivery recorded', async (_, answer) => {
    const { tenant, push, jobId, version } = await pushed();
    const staleHolds = deferred();
    const staleWaits = deferred();
    hold = async (runner) => {
      if (runner !== 'stale') return;
      staleWaits.resolve();
      await staleHolds.promise;
    };
    refusal = (runner) => (runner === 'stale' ? answer : null);
    // A runner that stalls past its PBX lease and, stalled, never hears that its job was taken over:
    // only the conditions on the version's row keep it from recording.
    const warnings: Array<Record<string, unknown>> = [];
    const log = { info: () => undefined, warn: (obj: object, msg: string) => void warnings.push({ ...obj, msg }) };
    const job: RunningJob = {
      id: jobId,
      attempt: 1,
      workerId: 'stale',
      leaseSeconds: 60,
      signal: new AbortController().signal,
      heartbeat: async () => true,
      log,
    };
    const stale = deliverPush(app.ctx, { pbxId: tenant.pbxId, pushId: push.id }, jobId, { job, deliver: heldDelivery('stale') });
    await staleWaits.promise;
    await app.ctx.db.updateTable('leases').set({ expires_at: clock.now().toISOString() }).where('name', '=', pushLeaseName(tenant.pbxId)).execute();
    // ...while the job delivers the version to the end.
    expect(await worker('instance-b', 60).drain()).toBe(1);
    const delivered = await version();
    expect(delivered).toMatchObject({ status: 'done', reason: null });

    staleHolds.resolve();
    await expect(stale).rejects.toBeInstanceOf(PushTurnLost);
    expect(await version()).toEqual(delivered);
    expect(deliveries).toEqual(['stale', 'instance-b']);
    expect(warnings).toContainEqual(expect.objectContaining({ msg: expect.stringMatching(/^configuration push lost its turn/), version: push.version }));
    if (answer) expect(warnings).toContainEqual(expect.objectContaining({ msg: 'configuration push refused by the PBX', reason: answer }));
    expect(await pushLease(tenant.pbxId)).toBeUndefined();

    // Nor does a job that runs out of attempts afterwards.
    await pushJob.onExhausted!(app.ctx, { pbxId: tenant.pbxId, pushId: push.id }, 'gave up', { info: () => undefined, warn: () => undefined });
    expect(await version()).toEqual(delivered);
  });

  it('changes a version only from the status it was seen in and under a live lease', async () => {
    const { tenant, push, jobId } = await pushed();
    await app.ctx.db.deleteFrom('jobs').where('id', '=', jobId).execute(); // the test plays the runner
    const now = clock.now().toISOString();
    const lease = { name: pushLeaseName(tenant.pbxId), holder: 'runner-1', now };
    const set = (from: Array<'queued' | 'delivering' | 'reloading' | 'done' | 'failed'>, withLease = true) =>
      updateVersionIf(app.ctx.db, tenant, push.id, { from, ...(withLease ? { lease } : {}) }, { status: 'delivering', updated_at: now });
    expect(await set(['queued'])).toBe(false); // nobody holds the lease
    await acquireLease(app.ctx.db, lease.name, 'runner-2', now, new Date(clock.nowMs() + 60_000).toISOString());
    expect(await set(['queued'])).toBe(false); // another runner does
    await app.ctx.db.updateTable('leases').set({ holder: 'runner-1' }).where('name', '=', lease.name).execute();
    expect(await set(['delivering', 'reloading'])).toBe(false); // not in that status
    expect(await set(['queued'])).toBe(true);
    await app.ctx.db.updateTable('config_versions').set({ status: 'done' }).where('id', '=', push.id).execute();
    expect(await set(['queued', 'delivering', 'reloading'], false)).toBe(false);
    expect((await findVersionById(app.ctx.db, tenant, push.id))?.status).toBe('done');
  });

  it('logs a refusal by the PBX with its answer and the status change, and no secret', async () => {
    let deviceId = '';
    const { tenant, push, jobId, version } = await pushed(async (tenant) => {
      const user = await createUser(app.ctx, { tenant });
      deviceId = (await createSipDevice(app.ctx, tenant, { user_id: user.id })).id;
    });
    const sealed = (await app.ctx.db.selectFrom('sip_devices').select('secret_sealed').where('id', '=', deviceId).executeTakeFirstOrThrow()).secret_sealed;
    const answer = 'Writing pjsip.conf: the PBX answered Permission denied.';
    refusal = () => answer;
    expect(await worker('instance-a', 60).drain()).toBe(1);
    expect(await version()).toMatchObject({ status: 'failed', reason: answer });
    expect(await findJob(app.ctx.db, jobId)).toMatchObject({ status: 'completed' });
    const entries = logged().filter((entry) => entry.push_id === push.id);
    expect(entries).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: 'configuration push refused by the PBX',
        pbx_id: tenant.pbxId,
        version: push.version,
        reason: answer,
        job: jobId,
      }),
    );
    expect(entries).toContainEqual(expect.objectContaining({ level: 30, from: 'delivering', to: 'failed', reason: answer }));
    const output = lines.join('');
    expect(output).not.toContain(app.ctx.secrets.open(sealed));
    expect(output).not.toContain(sealed);
  });
});
