/**
 * Webhook subscriptions' dispatch: each committed live event becomes one delivery (the Standard
 * Webhooks message of `enqueueWebhook`, sent and retried by its durable `webhook.deliver` job) per
 * subscription that receives it, stored in event order. The message's `data` is the event's
 * envelope, or its data alone for a subscription made with `payload: 'data'` (a contact import's
 * `webhook_url`, whose messages have always been `{type, timestamp, data: the import}`).
 *
 * The outbox is the source of truth and each tenant has a cursor, the last event number dispatched.
 * One dispatch is one transaction: it locks the cursor, reads the events after it, stores their
 * deliveries with their jobs and moves the cursor past them; it commits all of that or nothing. So an
 * event is dispatched once whatever dies when (the next dispatch starts from the cursor), a
 * rolled-back change has no event to dispatch, and two instances never dispatch the same event (the
 * second waits for the cursor and then finds it moved).
 *
 * What runs it is the `WebhookDispatcher` of each instance that does background work: a tenant's
 * bus subscription wakes it as soon as an event commits (PostgreSQL NOTIFY from any instance), and
 * a sweep every few seconds dispatches any tenant whose cursor lags its newest event (a failed
 * dispatch, an instance started after events were committed, a tenant's first subscription made on
 * another instance). Not a durable job per wake: every job leaves its row in `jobs`, which nothing
 * prunes, so a job per event (or a periodic job every few seconds) would grow it without end,
 * while the dispatch needs no job's retry or lease: its cursor makes any later run, on any
 * instance, the retry.
 */
import type { AppContext } from '../context.js';
import { eventEnvelope, eventKind, readEvents, type EventSubscription } from '../events/index.js';
import { activeSubscriptionsOf, receiverOf } from './subscriptions.js';
import { enqueueWebhook } from './webhooks.js';

/** Events per dispatch transaction; a longer backlog takes several. */
export const DISPATCH_BATCH = 500;

type DispatchContext = Pick<AppContext, 'db' | 'dialect' | 'clock'>;

interface DispatchLog {
  warn(obj: object, msg: string): void;
}

/**
 * Dispatches the tenant's next events after its cursor (at most `batch`), in one transaction;
 * answers how many events it read (0: nothing to do, or no cursor: the tenant never had a
 * subscription).
 */
export async function dispatchWebhookEvents(ctx: DispatchContext, pbxId: string, log?: DispatchLog, batch = DISPATCH_BATCH): Promise<number> {
  return ctx.db.transaction().execute(async (trx) => {
    const cursorQuery = trx.selectFrom('webhook_dispatch_cursors').select('last_seq').where('pbx_id', '=', pbxId);
    // SQLite runs one transaction at a time; PostgreSQL makes a second dispatcher of the tenant wait here.
    const cursor = await (ctx.dialect === 'postgres' ? cursorQuery.forUpdate() : cursorQuery).executeTakeFirst();
    if (!cursor) return 0;
    const events = await readEvents(trx, pbxId, cursor.last_seq, batch);
    if (events.length === 0) return 0;
    // Numbers have no gaps: a jump means events were pruned before any instance dispatched them.
    if (events[0].seq > cursor.last_seq + 1)
      log?.warn({ pbx_id: pbxId, from: cursor.last_seq + 1, to: events[0].seq - 1 }, 'webhook subscriptions: events pruned before they were dispatched');
    const receivers = (await activeSubscriptionsOf(trx, pbxId)).flatMap((subscription) => receiverOf(subscription, pbxId) ?? []);
    for (const event of events) {
      // A kind this code no longer defines: nobody can be judged to receive it.
      const kind = eventKind(event.kind);
      if (!kind) continue;
      for (const receiver of receivers) {
        if (!receiver.receives(event, kind)) continue;
        await enqueueWebhook(trx, ctx.clock, {
          pbxId,
          userId: receiver.subscription.user_id,
          event: event.kind,
          subjectType: event.subject.type,
          subjectId: event.subject.id,
          url: receiver.subscription.url,
          data: receiver.subscription.payload === 'data' ? event.data : eventEnvelope(event),
        });
      }
    }
    await trx
      .updateTable('webhook_dispatch_cursors')
      .set({ last_seq: events[events.length - 1].seq })
      .where('pbx_id', '=', pbxId)
      .execute();
    return events.length;
  });
}

/** Dispatches until the tenant's cursor has caught up with its committed events. */
export async function dispatchAllWebhookEvents(ctx: DispatchContext, pbxId: string, log?: DispatchLog): Promise<void> {
  while ((await dispatchWebhookEvents(ctx, pbxId, log)) === DISPATCH_BATCH);
}

export interface WebhookDispatcherOptions {
  /** Between sweeps (default 5 s). */
  sweepIntervalMs?: number;
  log?: DispatchLog;
}

/** A tenant being dispatched: one run at a time, once more when woken during it. */
interface Run {
  again: boolean;
  done: Promise<void>;
}

/** Runs the dispatch of every tenant with active subscriptions on this instance (see the top of this file). */
export class WebhookDispatcher {
  private readonly feeds = new Map<string, EventSubscription>();
  private readonly runs = new Map<string, Run>();
  private sweeper: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly ctx: Pick<AppContext, 'db' | 'dialect' | 'clock' | 'events'>,
    private readonly options: WebhookDispatcherOptions = {},
  ) {}

  /** Sweeps now and then every interval, until closed. */
  start(): void {
    if (this.sweeper || this.closed) return;
    this.sweeper = setInterval(() => void this.sweep(), this.options.sweepIntervalMs ?? 5000).unref();
    void this.sweep();
  }

  /**
   * Finds the tenants with active subscriptions: follows each one's events on the bus (and stops
   * following the others), and dispatches those whose cursor lags; resolves when those runs end.
   */
  sweep(): Promise<void> {
    this.sweeping ??= this.sweepOnce()
      .catch((error: unknown) => this.options.log?.warn({ err: error }, 'webhook subscriptions: sweep failed; the next one retries'))
      .finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  /** Dispatches the tenant now (or once more after the run under way); resolves when that run ends. */
  dispatch(pbxId: string): Promise<void> {
    if (this.closed) return Promise.resolve();
    const running = this.runs.get(pbxId);
    if (running) {
      running.again = true;
      return running.done;
    }
    const run: Run = { again: false, done: Promise.resolve() };
    run.done = (async () => {
      do {
        run.again = false;
        await dispatchAllWebhookEvents(this.ctx, pbxId, this.options.log);
      } while (run.again && !this.closed);
    })()
      .catch((error: unknown) => this.options.log?.warn({ err: error, pbx_id: pbxId }, 'webhook subscriptions: dispatch failed; the next sweep retries'))
      .finally(() => this.runs.delete(pbxId));
    this.runs.set(pbxId, run);
    return run.done;
  }

  /** Stops following and sweeping; waits for the runs under way (before the database closes). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    for (const feed of this.feeds.values()) feed.close();
    this.feeds.clear();
    await this.sweeping;
    await Promise.allSettled([...this.runs.values()].map((run) => run.done));
  }

  private async sweepOnce(): Promise<void> {
    const tenants = await this.ctx.db
      .selectFrom('webhook_dispatch_cursors as c')
      .leftJoin('event_counters as e', 'e.pbx_id', 'c.pbx_id')
      .select(['c.pbx_id', 'c.last_seq as cursor', 'e.last_seq as latest'])
      .where((eb) => eb.exists(eb.selectFrom('webhook_subscriptions as s').select('s.id').whereRef('s.pbx_id', '=', 'c.pbx_id').where('s.active', '=', 1)))
      .execute();
    if (this.closed) return;
    const wanted = new Set(tenants.map((tenant) => tenant.pbx_id));
    for (const [pbxId, feed] of this.feeds) {
      if (wanted.has(pbxId)) continue;
      feed.close();
      this.feeds.delete(pbxId);
    }
    const runs: Promise<void>[] = [];
    for (const { pbx_id: pbxId, cursor, latest } of tenants) {
      // The bus hands over events committed after `latest`; the dispatch itself reads them from the cursor.
      if (!this.feeds.has(pbxId))
        this.feeds.set(
          pbxId,
          this.ctx.events.subscribe(pbxId, latest ?? 0, () => void this.dispatch(pbxId)),
        );
      if ((latest ?? 0) > cursor) runs.push(this.dispatch(pbxId));
    }
    await Promise.all(runs);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's dispatcher of webhook subscriptions (started with the app unless JOB_WORKER=false). */
    webhookDispatcher: WebhookDispatcher;
  }
}
