/**
 * One delivery at a time per PBX, across instances: the PBX's push lease, taken for one run of a
 * push job (its holder names the job, the worker and the attempt, so a second holder of the same
 * job is refused while the first one's lease is live), renewed together with the job's own lease
 * while the delivery runs, and the fence every status change of the version goes through.
 */
import { randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import type { AppContext } from '../../../platform/context.js';
import type { JobLog, RunningJob } from '../../../platform/jobs/jobs.js';
import { acquireLease, releaseLease } from '../../../platform/leases.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { ConfigPushStatus, ConfigVersionTable } from '../config-push.tables.js';
import { findPushById, findVersionById, updateVersionIf, type ConfigVersionRow } from '../versions/versions.queries.js';
import { publishPushProgress } from './pushes.events.js';

/** The lease that lets one delivery at a time reach a PBX, whichever instance runs it. */
export const pushLeaseName = (pbxId: string) => `config-push:${pbxId}`;

/** A logger that writes nothing (a delivery run in place, without a job worker). */
export const silentLog: JobLog = { info: () => undefined, warn: () => undefined };

/**
 * Thrown at a safe point of a delivery that lost its turn: another worker took its job over, the
 * PBX's push lease went to another delivery, or the version moved on without it. Nothing of the
 * delivery is recorded after it.
 */
export class PushTurnLost extends Error {}

/** A version's statuses after which no delivery changes it any more. */
export const isFinal = (status: ConfigPushStatus) => status === 'done' || status === 'failed';

export interface PushRun {
  /** The push job's id (the demo seed delivers in place, under the id of the job it enqueued). */
  jobId: string;
  /** The job running the delivery, when a worker runs it: its lease is renewed with the PBX's. */
  job?: RunningJob;
  log: JobLog;
}

/** What a status change writes besides the status. */
type VersionChanges = Omit<Updateable<ConfigVersionTable>, 'status'>;

/** One delivery's hold on its PBX: take it, record through it, release it in `finally`. */
export class PushTurn {
  private readonly controller = new AbortController();
  private readonly name: string;
  private timer: NodeJS.Timeout | null = null;
  private renewing: Promise<boolean> | null = null;
  private lostReason: string | null = null;
  /** The status this delivery last saw or set: the only one it may change. */
  private status: ConfigPushStatus;

  private constructor(
    private readonly ctx: AppContext,
    private readonly tenant: Tenant,
    /** The version delivered (its id and number; its status is `status`). */
    private readonly row: Pick<ConfigVersionRow, 'id' | 'version' | 'status'>,
    readonly holder: string,
    private readonly leaseSeconds: number,
    private readonly run: PushRun,
  ) {
    this.name = pushLeaseName(tenant.pbxId);
    this.status = row.status;
  }

  /**
   * Takes the PBX's push lease for this run (and starts renewing it with the job's); null when
   * another delivery holds it, logged with its holder.
   */
  static async take(ctx: AppContext, tenant: Tenant, version: Pick<ConfigVersionRow, 'id' | 'version' | 'status'>, run: PushRun): Promise<PushTurn | null> {
    const leaseSeconds = run.job?.leaseSeconds ?? ctx.config.jobLeaseSeconds;
    const holder = run.job
      ? `config-push-job:${run.jobId}:${run.job.workerId}:${run.job.attempt}`
      : `config-push-job:${run.jobId}:in-place:${randomUUID().slice(0, 8)}`;
    const name = pushLeaseName(tenant.pbxId);
    const now = ctx.clock.now().toISOString();
    if (!(await acquireLease(ctx.db, name, holder, now, new Date(ctx.clock.nowMs() + leaseSeconds * 1000).toISOString()))) {
      const current = await ctx.db.selectFrom('leases').select(['holder', 'expires_at']).where('name', '=', name).executeTakeFirst();
      run.log.info(
        { pbx_id: tenant.pbxId, push_id: version.id, version: version.version, holder: current?.holder ?? null, held_until: current?.expires_at ?? null },
        'configuration push waits: another delivery holds the PBX push lease',
      );
      return null;
    }
    const turn = new PushTurn(ctx, tenant, version, holder, leaseSeconds, run);
    // Both leases are renewed at a third of their time, like withLease (platform/leases.ts).
    turn.timer = setInterval(() => void turn.renew().catch(() => undefined), (leaseSeconds * 1000) / 3);
    return turn;
  }

  /** The version as it is now, read under the lease (what another delivery recorded before it counts). */
  async read(): Promise<ConfigVersionRow | undefined> {
    const row = await findVersionById(this.ctx.db, this.tenant, this.row.id);
    if (row) this.status = row.status;
    return row;
  }

  /**
   * Aborted once the turn is lost (the job taken over, the PBX lease gone): what the delivery
   * watches between its steps (passed to the engine as `hooks.signal`).
   */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get lost(): boolean {
    return this.lostReason !== null;
  }

  /** Throws PushTurnLost once the turn is lost: a safe point. */
  check(): void {
    if (this.lostReason !== null) throw new PushTurnLost(`The delivery stopped: ${this.lostReason}.`);
  }

  private lose(reason: string): void {
    if (this.lostReason !== null) return;
    this.lostReason = reason;
    this.run.log.warn(
      { pbx_id: this.tenant.pbxId, push_id: this.row.id, version: this.row.version, holder: this.holder, reason },
      'configuration push lost its turn; the delivery stops at its next safe point and records nothing',
    );
    this.controller.abort(new PushTurnLost(`The delivery stopped: ${reason}.`));
  }

  /** Renews the PBX lease, then the job's; false once either is lost. One renewal at a time. */
  private renew(): Promise<boolean> {
    if (this.lostReason !== null) return Promise.resolve(false);
    const renewal = (this.renewing ??= this.renewBoth().finally(() => {
      if (this.renewing === renewal) this.renewing = null;
    }));
    return renewal;
  }

  private async renewBoth(): Promise<boolean> {
    const now = this.ctx.clock.now().toISOString();
    const until = new Date(this.ctx.clock.nowMs() + this.leaseSeconds * 1000).toISOString();
    try {
      if (!(await acquireLease(this.ctx.db, this.name, this.holder, now, until))) {
        this.lose('the PBX push lease lapsed and another delivery took it');
        return false;
      }
      if (this.run.job && !(await this.run.job.heartbeat())) {
        this.lose('another worker took the job over');
        return false;
      }
      return true;
    } catch (error) {
      // A lease lasts three beats: one failed renewal is retried at the next; recording re-checks.
      this.run.log.warn({ err: error, pbx_id: this.tenant.pbxId, push_id: this.row.id, version: this.row.version }, 'configuration push: lease renewal failed');
      throw error;
    }
  }

  /** Renews both leases now and throws PushTurnLost when either is lost: the check before recording. */
  async confirm(): Promise<void> {
    this.check();
    await this.renew();
    this.check();
  }

  /**
   * Sets the version's status to `to` (with `changes`), only from the status this delivery last
   * saw or set and only while it holds the PBX lease (one statement), with its progress event; logs the change. A version
   * that moved on (another runner recorded it) loses the turn: PushTurnLost, nothing written.
   */
  async record(to: ConfigPushStatus, changes: VersionChanges): Promise<void> {
    await this.confirm();
    const from = this.status;
    const now = this.ctx.clock.now().toISOString();
    // The change and its progress event in one transaction.
    const changed = await this.ctx.db.transaction().execute(async (trx) => {
      const updated = await updateVersionIf(
        trx,
        this.tenant,
        this.row.id,
        { from: [from], lease: { name: this.name, holder: this.holder, now } },
        { ...changes, status: to },
      );
      if (updated) await publishPushProgress(this.ctx, trx, this.tenant, await findPushById(trx, this.tenant, this.row.id));
      return updated;
    });
    if (!changed) {
      const reason = `version ${this.row.version} is no longer ${from} under this delivery's lease, so ${to} is not recorded`;
      this.lose(reason);
      throw new PushTurnLost(`The delivery stopped: ${reason}.`);
    }
    this.status = to;
    this.run.log.info(
      {
        pbx_id: this.tenant.pbxId,
        push_id: this.row.id,
        version: this.row.version,
        from,
        to,
        ...(typeof changes.reason === 'string' ? { reason: changes.reason } : {}),
      },
      `configuration push: version ${this.row.version} ${from} → ${to}`,
    );
  }

  /** Stops the renewals (waiting for one under way, so it cannot take the lease again) and gives the lease up. */
  async release(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.renewing?.catch(() => undefined);
    await releaseLease(this.ctx.db, this.name, this.holder);
  }
}
