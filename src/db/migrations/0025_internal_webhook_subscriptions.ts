import type { Kysely } from 'kysely';

/**
 * Webhook subscriptions made by a record rather than through `/webhook-subscriptions` (a contact
 * import's `webhook_url`): `owner_kind`/`owner_id` name that record (null for the API's own), and
 * `payload` says what a message's `data` is: the event's envelope (`envelope`, the API's
 * subscriptions) or the event's data alone (`data`, the message an import's webhook always sent).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('webhook_subscriptions')
    .addColumn('payload', 'varchar(16)', (c) => c.notNull().defaultTo('envelope'))
    .execute();
  await db.schema.alterTable('webhook_subscriptions').addColumn('owner_kind', 'varchar(64)').execute();
  await db.schema.alterTable('webhook_subscriptions').addColumn('owner_id', 'text').execute();
  // An owner's subscriptions are removed with it.
  await db.schema.createIndex('webhook_subscriptions_owner_idx').on('webhook_subscriptions').columns(['owner_kind', 'owner_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('webhook_subscriptions_owner_idx').ifExists().execute();
  await db.schema.alterTable('webhook_subscriptions').dropColumn('owner_id').execute();
  await db.schema.alterTable('webhook_subscriptions').dropColumn('owner_kind').execute();
  await db.schema.alterTable('webhook_subscriptions').dropColumn('payload').execute();
}
