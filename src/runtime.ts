import type { Config } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { systemClock } from './platform/clock.js';
import type { AppContext } from './platform/context.js';
import { SecretBox } from './platform/crypto.js';
import { ChangeTracker } from './platform/cache/change-tracker.js';
import { eventBusFor } from './platform/events/event-bus.js';
import { createMailer } from './platform/mail/mailer.js';
import { MemoryCounterStore } from './platform/throttle.js';
import { join } from 'node:path';

export function openConfiguredDatabase(config: Config): Database {
  return openDatabase({ url: config.databaseUrl, sqlitePath: config.sqlitePath, poolSize: config.databasePoolSize });
}

export async function openMigratedDatabase(config: Config): Promise<Database> {
  const database = openConfiguredDatabase(config);
  await migrateToLatest(database.db);
  return database;
}

/** A platform context outside HTTP (CLI, seeding, benchmark set-up). */
export function commandContext(config: Config, database: Database): AppContext {
  return {
    config,
    db: database.db,
    dialect: database.dialect,
    clock: systemClock,
    mailer: createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: join(config.dataDir, 'outbox') }),
    secrets: new SecretBox(config.secretKey),
    counters: new MemoryCounterStore(systemClock),
    redis: null,
    changes: new ChangeTracker(),
    // Publishes only: a command subscribes to nothing, so the bus opens no connection and no timer.
    events: eventBusFor(config, database, systemClock),
  };
}
