import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { DialectName } from '../db/database.js';
import type { DB } from '../db/schema.js';
import type { ChangeTracker } from './cache/change-tracker.js';
import type { Clock } from './clock.js';
import type { EventBus } from './events/event-bus.js';
import type { SecretBox } from './crypto.js';
import type { Mailer } from './mail/mailer.js';
import type { RedisLink } from './redis.js';
import type { CounterStore } from './throttle.js';

/** What services need from the platform; built once per app and handed to every module. */
export interface AppContext {
  config: Config;
  db: Kysely<DB>;
  dialect: DialectName;
  clock: Clock;
  mailer: Mailer;
  secrets: SecretBox;
  counters: CounterStore;
  /** REDIS_URL's connection, with the fallbacks its uses take while it is down (null without Redis). */
  redis: RedisLink | null;
  /** When each tenant's data last changed: what in-process caches check before serving. */
  changes: ChangeTracker;
  /** Live events: publish in a change's transaction, subscribe to a tenant's (platform/events). */
  events: EventBus;
}

/** A resource's routes, registered as a Fastify plugin of its own (its schemas stay its own). */
export type RoutePlugin = (app: FastifyInstance, options: { ctx: AppContext }) => Promise<void>;
