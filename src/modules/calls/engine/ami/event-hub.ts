import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Selectable } from 'kysely';
import type { AppContext } from '../../../../platform/context.js';
import { acquireLease, releaseLease } from '../../../../platform/leases.js';
import type { AmiSettingsTable } from '../../calls.tables.js';
import { enabledAmiSettings, findAmiSettings } from '../pbx-engine.queries.js';
import { amiConnectionOf } from './asterisk-engine.js';
import { AmiEventListener, type ListenerOptions } from './events.js';
import { AmiHostGuard, AmiHostRefused } from './host-guard.js';

type SettingsRow = Selectable<AmiSettingsTable>;

export interface EventHubOptions {
  /** How long a lease lasts unless renewed; renewed every third of it (AMI_EVENTS_LEASE_SECONDS). */
  leaseSeconds: number;
  log: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void };
  listener?: Omit<ListenerOptions, 'log' | 'guard'>;
  /** Where listeners may connect; by default the configuration's allow-list. */
  guard?: AmiHostGuard;
}

const leaseName = (pbxId: string) => `ami-events:${pbxId}`;

/**
 * One AMI event listener per enabled PBX across all instances: each instance renews, for every
 * enabled PBX, a lease in the database, and listens only to the PBXs whose lease it holds. When an
 * instance stops (or dies and its lease lapses) another takes over on its next round, and a change
 * of settings saved through any instance reaches the listener within one round.
 */
export class AmiEventHub {
  private readonly listeners = new Map<string, { listener: AmiEventListener; version: string }>();
  /** This instance, as lease holder. */
  readonly holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private timer: NodeJS.Timeout | null = null;
  /** Rounds run one at a time: a settings change may ask for one while the periodic one runs. */
  private queue: Promise<void> = Promise.resolve();
  private readonly guard: AmiHostGuard;
  /** PBXs skipped for a host the allow-list refuses, with the settings version already logged (logged once, not every round). */
  private readonly refused = new Map<string, string>();

  constructor(
    private readonly ctx: AppContext,
    private readonly options: EventHubOptions,
  ) {
    this.guard = options.guard ?? new AmiHostGuard(ctx.config);
  }

  async start(): Promise<void> {
    await this.reconcile();
    this.timer = setInterval(
      () => {
        this.reconcile().catch((error: unknown) => this.options.log.warn({ err: error }, 'AMI event listeners not renewed'));
      },
      (this.options.leaseSeconds * 1000) / 3,
    );
    this.timer.unref();
  }

  /** The PBXs this instance listens to. */
  listening(): string[] {
    return [...this.listeners.keys()];
  }

  /** One round: take or renew the lease of every enabled PBX, listen where held, stop elsewhere. */
  reconcile(): Promise<void> {
    return this.serially(async () => {
      const rows = await enabledAmiSettings(this.ctx.db);
      const enabled = new Set(rows.map((row) => row.pbx_id));
      for (const row of rows) await this.settle(row.pbx_id, row);
      for (const pbxId of this.listening()) if (!enabled.has(pbxId)) await this.settle(pbxId, undefined);
    });
  }

  /** After a settings change on this instance: applied at once rather than on the next round. */
  refresh(pbxId: string): Promise<void> {
    return this.serially(async () => this.settle(pbxId, await findAmiSettings(this.ctx.db, { pbxId })));
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.serially(async () => {
      for (const pbxId of this.listening()) await this.drop(pbxId, true);
    });
  }

  private serially(work: () => Promise<void>): Promise<void> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * One PBX whose settings cannot be used (say a secret sealed with another key) is logged, not
   * thrown: it must neither hold up the other PBXs nor fail the request that saved its settings.
   */
  private settle(pbxId: string, row: SettingsRow | undefined): Promise<void> {
    return this.apply(pbxId, row).catch((error: unknown) => this.options.log.warn({ err: error, pbx_id: pbxId }, 'AMI event listener not started'));
  }

  private async apply(pbxId: string, row: SettingsRow | undefined): Promise<void> {
    if (!row || row.enabled !== 1) return this.drop(pbxId, true);
    if (this.listeners.get(pbxId)?.version !== row.updated_at && !(await this.admitted(row))) return this.drop(pbxId, true);
    const now = this.ctx.clock.nowMs();
    const held = await acquireLease(
      this.ctx.db,
      leaseName(pbxId),
      this.holder,
      new Date(now).toISOString(),
      new Date(now + this.options.leaseSeconds * 1000).toISOString(),
    );
    if (!held) return this.drop(pbxId, false);
    const current = this.listeners.get(pbxId);
    if (current?.version === row.updated_at) return;
    if (current) {
      // Out of the map before anything can fail, so a stopped listener is never reported as listening.
      this.listeners.delete(pbxId);
      await current.listener.stop();
    }
    const listener = new AmiEventListener(this.ctx, { pbxId }, amiConnectionOf(this.ctx, row), {
      loginFailures: row.login_failures,
      failingSince: row.failing_since,
      ...this.options.listener,
      log: this.options.log,
      guard: this.guard,
    });
    this.listeners.set(pbxId, { listener, version: row.updated_at });
    listener.start();
  }

  /**
   * Settings saved before the allow-list stopped admitting their host (or pointing at a name that
   * now resolves elsewhere) are skipped before any connection, and the operator is told why.
   */
  private async admitted(row: SettingsRow): Promise<boolean> {
    try {
      await this.guard.check(row.host);
      this.refused.delete(row.pbx_id);
      return true;
    } catch (error) {
      if (!(error instanceof AmiHostRefused)) throw error;
      if (this.refused.get(row.pbx_id) !== row.updated_at) {
        this.refused.set(row.pbx_id, row.updated_at);
        this.options.log.warn({ pbx_id: row.pbx_id, reason: error.detail }, 'AMI event listener skipped: its host is not admitted by AMI_ALLOWED_HOSTS');
      }
      return false;
    }
  }

  /** Stops listening to a PBX; gives its lease up when this instance still holds it. */
  private async drop(pbxId: string, release: boolean): Promise<void> {
    const current = this.listeners.get(pbxId);
    this.listeners.delete(pbxId);
    if (current) await current.listener.stop();
    if (release) await releaseLease(this.ctx.db, leaseName(pbxId), this.holder);
  }
}
