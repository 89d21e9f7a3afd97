import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { Clock } from '../clock.js';
import { defineJob } from '../jobs/jobs.js';
import { signaturesOf, signingSecretsOf } from './signing-secrets.js';
import { postGuarded } from './url-guard.js';
import type { Executor } from '../../db/database.js';

export interface WebhookEvent {
  pbxId: string;
  /** The user the event concerns, who may read its delivery log. */
  userId: string | null;
  /** e.g. `contact_import.completed`. */
  event: string;
  subjectType: string;
  subjectId: string;
  url: string;
  data: unknown;
}

/**
 * Records a webhook message and queues its delivery. Pass the transaction that changes the
 * subject, so the event exists exactly when the change does.
 */
export async function enqueueWebhook(db: Executor, clock: Clock, event: WebhookEvent): Promise<string> {
  const now = clock.now().toISOString();
  const id = `msg_${randomUUID().replace(/-/g, '')}`;
  await db
    .insertInto('webhook_deliveries')
    .values({
      id,
      pbx_id: event.pbxId,
      user_id: event.userId,
      event: event.event,
      subject_type: event.subjectType,
      subject_id: event.subjectId,
      url: event.url,
      payload: JSON.stringify({ type: event.event, timestamp: now, data: event.data }),
      status: 'pending',
      attempts: 0,
      response_status: null,
      last_error: null,
      created_at: now,
      updated_at: now,
      delivered_at: null,
    })
    .execute();
  await deliverWebhook.enqueue(db, clock, { deliveryId: id });
  return id;
}

/** Delivery: signed POST, any 2xx counts; otherwise retried with backoff (about 21 minutes over 8 attempts). */
export const deliverWebhook = defineJob<{ deliveryId: string }>({
  kind: 'webhook.deliver',
  maxAttempts: 8,
  backoffSeconds: (attempt) => Math.min(600, 5 * 2 ** (attempt - 1)),
  async run(ctx, { deliveryId }) {
    const delivery = await ctx.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', deliveryId).executeTakeFirst();
    if (!delivery || delivery.status !== 'pending') return;
    // Every attempt, a retry of an old message included, is signed now with the secrets valid now:
    // during a rotation's overlap both verify, so receivers still on the previous secret lose nothing.
    const sentAt = ctx.clock.now();
    const secrets = await signingSecretsOf(ctx.db, ctx.secrets, ctx.config, delivery.pbx_id, sentAt);
    const signature = signaturesOf(secrets, (secret) => new Webhook(secret).sign(delivery.id, sentAt, delivery.payload));
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'pbx-api-webhooks/1',
      'webhook-id': delivery.id,
      'webhook-timestamp': Math.floor(sentAt.getTime() / 1000).toString(),
      'webhook-signature': signature,
    };
    let status: number | null = null;
    let error: string | null = null;
    try {
      const result = await postGuarded(delivery.url, headers, delivery.payload, {
        allowPrivate: ctx.config.webhookAllowPrivate,
        timeoutMs: ctx.config.webhookTimeoutMs,
      });
      status = result.status;
      if (status < 200 || status >= 300) error = `HTTP ${status}${result.body ? `: ${result.body.slice(0, 200)}` : ''}`;
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    const now = ctx.clock.now().toISOString();
    await ctx.db
      .updateTable('webhook_deliveries')
      .set({
        attempts: delivery.attempts + 1,
        response_status: status,
        last_error: error,
        updated_at: now,
        ...(error ? {} : { status: 'delivered', delivered_at: now }),
      })
      .where('id', '=', delivery.id)
      .execute();
    if (error) throw new Error(error);
  },
  async onExhausted(ctx, { deliveryId }) {
    await ctx.db.updateTable('webhook_deliveries').set({ status: 'failed', updated_at: ctx.clock.now().toISOString() }).where('id', '=', deliveryId).execute();
  },
});
