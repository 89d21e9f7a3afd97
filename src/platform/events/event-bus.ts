import type pg from 'pg';
import type { TSchema } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database, DialectName, Executor } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { EVENTS_CHANNEL, pruneEvents, publishEvent, readEvents, type LiveEvent, type PublishInput } from './event-store.js';

/** Receives a tenant's events in number order, each once, in batches (never empty). */
export type EventListener = (events: readonly LiveEvent[]) => void;

export interface EventSubscription {
  readonly pbxId: string;
  /** The number of the last event handed to the listener (or the start). */
  readonly lastSeq: number;
  /** Stops the deliveries; the tenant's reads stop with its last subscription. */
  close(): void;
}

export interface EventBusOptions {
  db: Kysely<DB>;
  dialect: DialectName;
  clock: Clock;
  /** EVENT_RETENTION_HOURS: events older are pruned. */
  retentionHours: number;
  /** PostgreSQL: a connection of its own, outside the pool, to LISTEN on (`Database.listenClient`). */
  listenClient?: () => pg.Client;
  /** Check published data against the kind's schema (outside production). */
  checkData?: boolean;
  log?: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void };
  /** Safety read of each tenant with subscribers, for a wake that got lost (default 5 s). */
  pollIntervalMs?: number;
  /** Rows per read (default 500); a longer backlog takes several reads. */
  batchSize?: number;
  /** Pruning after start, then between prunes (defaults: a minute, ten minutes). */
  pruneDelayMs?: number;
  pruneIntervalMs?: number;
}

interface Subscriber {
  afterSeq: number;
  listener: EventListener;
}

/** A tenant with subscribers: one read at a time, fanned out to all of them. */
interface Feed {
  pbxId: string;
  subscribers: Set<Subscriber>;
  reading: Promise<void> | null;
  /** A wake came during the read: read once more after it. */
  again: boolean;
}

const MAX_RECONNECT_DELAY_MS = 30_000;

/** The furthest-behind subscriber's position: where the tenant's next read starts. */
function position(feed: Feed): number {
  let from = Infinity;
  for (const subscriber of feed.subscribers) from = Math.min(from, subscriber.afterSeq);
  return from;
}

/**
 * One per process (`ctx.events`): publishes into the outbox and hands each tenant's new events to
 * its subscribers. A wake (PostgreSQL: NOTIFY from any instance, heard on a LISTEN connection of
 * its own; SQLite: the publishing call itself) makes it read the tenant's events after the
 * furthest-behind subscriber's position once, and give each subscriber the part it has not seen.
 * Nothing is lost without a wake: after a (re)connect of the LISTEN connection every tenant is read
 * again, and a slow poll reads every tenant whose counter moved. Lazy: no connection and no timer
 * until the first subscriber.
 */
export class EventBus {
  private readonly feeds = new Map<string, Feed>();
  private readonly batchSize: number;
  private readonly pollIntervalMs: number;
  private poll: NodeJS.Timeout | null = null;
  private prune: { timer: NodeJS.Timeout; running: Promise<unknown> | null } | null = null;
  private listener: pg.Client | null = null;
  private listening: Promise<void> | null = null;
  private reconnect: NodeJS.Timeout | null = null;
  private reconnectDelayMs = 500;
  private closed = false;

  constructor(private readonly options: EventBusOptions) {
    this.batchSize = options.batchSize ?? 500;
    this.pollIntervalMs = options.pollIntervalMs ?? 5000;
  }

  /**
   * Stores an event in `db`, the transaction of the change it reports (see `publishEvent`), and
   * answers its number. Subscribers get it once that transaction commits, never if it rolls back.
   */
  async publish<S extends TSchema>(db: Executor, input: PublishInput<S>): Promise<number> {
    const seq = await publishEvent(db, input, {
      dialect: this.options.dialect,
      now: this.options.clock.now().toISOString(),
      checkData: this.options.checkData,
    });
    // SQLite has one connection, held by the transaction: the read this wake starts runs after it ends and sees its outcome.
    if (this.options.dialect === 'sqlite') this.wake(input.pbxId);
    return seq;
  }

  /**
   * Delivers the tenant's events after `afterSeq` (those stored already, then each as it commits)
   * to `listener`, until closed. Use `resumeFrom` to find `afterSeq` for a client's last event id.
   */
  subscribe(pbxId: string, afterSeq: number, listener: EventListener): EventSubscription {
    if (this.closed) throw new Error('the event bus is closed');
    let feed = this.feeds.get(pbxId);
    if (!feed) {
      feed = { pbxId, subscribers: new Set(), reading: null, again: false };
      this.feeds.set(pbxId, feed);
    }
    const subscriber: Subscriber = { afterSeq, listener };
    feed.subscribers.add(subscriber);
    this.startWatching();
    this.read(feed);
    const subscribed = feed;
    return {
      pbxId,
      get lastSeq() {
        return subscriber.afterSeq;
      },
      close: () => {
        subscribed.subscribers.delete(subscriber);
        if (subscribed.subscribers.size === 0 && this.feeds.get(pbxId) === subscribed) this.feeds.delete(pbxId);
        if (this.feeds.size === 0) this.stopPolling();
      },
    };
  }

  /** How many subscriptions are open, per tenant (metrics, tests). */
  subscriptions(): Map<string, number> {
    return new Map([...this.feeds].map(([pbxId, feed]) => [pbxId, feed.subscribers.size]));
  }

  /**
   * Reads the tenant's new events for its subscribers, if it has any; `seq`, the newest event
   * known, spares the read when every subscriber has it already.
   */
  wake(pbxId: string, seq?: number): void {
    const feed = this.feeds.get(pbxId);
    if (feed && !(seq !== undefined && seq <= position(feed))) this.read(feed);
  }

  /**
   * Prunes every RETENTION period from now on (the instances that run background work call it),
   * and runs `others` on the same timer (the Idempotency-Keys past their 24 hours); stopped by `close`.
   */
  startPruning(others: ReadonlyArray<() => Promise<unknown>> = []): void {
    if (this.prune || this.closed) return;
    const run = () => {
      const prune = this.prune;
      if (!prune || prune.running) return;
      prune.running = Promise.all([
        this.pruneNow().catch((error: unknown) => this.options.log?.warn({ err: error }, 'live events not pruned')),
        ...others.map((other) => other().catch((error: unknown) => this.options.log?.warn({ err: error }, 'expired rows not pruned'))),
      ]).finally(() => (prune.running = null));
    };
    const timer = setTimeout(() => {
      run();
      if (this.prune) this.prune.timer = setInterval(run, this.options.pruneIntervalMs ?? 600_000).unref();
    }, this.options.pruneDelayMs ?? 60_000).unref();
    this.prune = { timer, running: null };
  }

  /** Deletes the events older than the retention; answers how many. */
  pruneNow(): Promise<number> {
    const before = new Date(this.options.clock.nowMs() - this.options.retentionHours * 3600_000).toISOString();
    return pruneEvents(this.options.db, before);
  }

  /** Stops reading, listening and pruning; waits for reads in flight (before the database closes). */
  async close(): Promise<void> {
    this.closed = true;
    this.stopPolling();
    if (this.reconnect) clearTimeout(this.reconnect);
    this.reconnect = null;
    if (this.prune) {
      clearTimeout(this.prune.timer);
      clearInterval(this.prune.timer);
      await this.prune.running;
      this.prune = null;
    }
    const reads = [...this.feeds.values()].flatMap((feed) => (feed.reading ? [feed.reading] : []));
    this.feeds.clear();
    await Promise.allSettled(reads);
    await this.listening?.catch(() => undefined);
    const client = this.listener;
    this.listener = null;
    await client?.end().catch(() => undefined);
  }

  private read(feed: Feed): void {
    if (this.closed) return;
    if (feed.reading) {
      feed.again = true;
      return;
    }
    feed.reading = this.readAll(feed)
      .catch((error: unknown) => this.options.log?.warn({ err: error, pbx_id: feed.pbxId }, 'live events not read; the next wake or poll reads them'))
      .finally(() => (feed.reading = null));
  }

  private async readAll(feed: Feed): Promise<void> {
    do {
      feed.again = false;
      for (;;) {
        if (feed.subscribers.size === 0 || this.closed) return;
        const from = position(feed);
        const events = await readEvents(this.options.db, feed.pbxId, from, this.batchSize);
        if (events.length > 0) this.deliver(feed, from, events);
        if (events.length < this.batchSize) break;
      }
    } while (feed.again);
  }

  /** Hands the events read after `from` to each subscriber still open that has not seen them. */
  private deliver(feed: Feed, from: number, events: LiveEvent[]): void {
    const last = events[events.length - 1].seq;
    for (const subscriber of [...feed.subscribers]) {
      // One that joined behind `from` during the read: the read that its joining asked for serves it.
      if (subscriber.afterSeq >= last || subscriber.afterSeq < from || !feed.subscribers.has(subscriber)) continue;
      // Subscribers at the read's start (nearly all) get the read's array itself.
      const unseen = events[0].seq > subscriber.afterSeq ? events : events.filter((event) => event.seq > subscriber.afterSeq);
      subscriber.afterSeq = last;
      try {
        subscriber.listener(unseen);
      } catch (error) {
        this.options.log?.warn({ err: error, pbx_id: feed.pbxId }, 'live event listener failed');
      }
    }
  }

  private startWatching(): void {
    if (!this.poll) this.poll = setInterval(() => this.pollFeeds(), this.pollIntervalMs).unref();
    if (this.options.dialect === 'postgres' && this.options.listenClient && !this.listener && !this.listening && !this.reconnect) this.listen();
  }

  private stopPolling(): void {
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
  }

  /** One query for all tenants with subscribers: those whose counter passed a subscriber's position are read. */
  private pollFeeds(): void {
    const feeds = [...this.feeds.values()];
    const wanted = feeds.filter((feed) => !feed.reading).map((feed) => feed.pbxId);
    if (wanted.length === 0) return;
    void (async () => {
      for (let start = 0; start < wanted.length; start += 500) {
        const rows = await this.options.db
          .selectFrom('event_counters')
          .select(['pbx_id', 'last_seq'])
          .where('pbx_id', 'in', wanted.slice(start, start + 500))
          .execute();
        for (const row of rows) this.wake(row.pbx_id, row.last_seq);
      }
    })().catch((error: unknown) => this.options.log?.warn({ err: error }, 'live events poll failed'));
  }

  private listen(): void {
    const connect = this.options.listenClient;
    if (!connect) return;
    const client = connect();
    // Once listening; a failure while connecting is the connecting code's.
    const lost = (error?: unknown) => {
      if (this.listener !== client) return;
      this.listener = null;
      client.removeAllListeners('notification');
      client.end().catch(() => undefined);
      if (!this.closed) {
        this.options.log?.warn({ err: error }, 'live events: LISTEN connection lost; reconnecting');
        this.scheduleReconnect();
      }
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      const payload = message.payload ?? '';
      const colon = payload.lastIndexOf(':');
      if (message.channel === EVENTS_CHANNEL && colon > 0) this.wake(payload.slice(0, colon), Number(payload.slice(colon + 1)));
    });
    this.listening = (async () => {
      await client.connect();
      await client.query(`listen ${EVENTS_CHANNEL}`);
      if (this.closed) throw new Error('closed while connecting');
      this.listener = client;
      this.reconnectDelayMs = 500;
      // What committed before LISTEN took effect had no wake here.
      for (const feed of this.feeds.values()) this.read(feed);
    })()
      .catch((error: unknown) => {
        client.end().catch(() => undefined);
        if (!this.closed) {
          this.options.log?.warn({ err: error }, 'live events: LISTEN connection failed; retrying');
          this.scheduleReconnect();
        }
      })
      .finally(() => (this.listening = null));
  }

  private scheduleReconnect(): void {
    if (this.reconnect || this.closed) return;
    const delay = this.reconnectDelayMs;
    this.reconnectDelayMs = Math.min(delay * 2, MAX_RECONNECT_DELAY_MS);
    this.reconnect = setTimeout(() => {
      this.reconnect = null;
      if (!this.closed && this.feeds.size > 0) this.listen();
    }, delay).unref();
  }
}

/** The app's bus on its database, with the configured retention; it checks published data outside production. */
export function eventBusFor(config: Config, database: Database, clock: Clock, log?: EventBusOptions['log']): EventBus {
  return new EventBus({
    db: database.db,
    dialect: database.dialect,
    clock,
    retentionHours: config.eventRetentionHours,
    listenClient: database.listenClient,
    checkData: config.env !== 'production',
    log,
  });
}
