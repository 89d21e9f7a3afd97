import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ChangeTracker } from './change-tracker.js';
import { sharedVersionKey } from './shared-versions.js';

interface ChangeMessage {
  from: string;
  pbx: string | null;
}

export function changeChannel(redisKeyPrefix: string): string {
  return `${redisKeyPrefix}changes`;
}

/** Tells every instance listening on Redis that a tenant's data (`null`: any tenant's) changed. */
export async function publishChange(redis: Redis, channel: string, pbxId: string | null, from = 'cli'): Promise<void> {
  const message: ChangeMessage = { from, pbx: pbxId };
  await redis.publish(channel, JSON.stringify(message));
}

/**
 * Shares the tracker's changes between instances through Redis pub/sub, so a token revoked or a
 * profile edited on one instance stops being served from another's cache at once. Without Redis,
 * the caches' time-to-live bounds that delay instead. Returns a function that unsubscribes.
 */
export async function connectChangeBroadcast(
  tracker: ChangeTracker,
  redis: Redis,
  channel: string,
  log: { warn(object: object, message: string): void },
): Promise<() => Promise<void>> {
  const instance = randomUUID();
  const subscriber = redis.duplicate();
  subscriber.on('message', (from: string, raw: string) => {
    if (from !== channel) return;
    try {
      const message = JSON.parse(raw) as ChangeMessage;
      if (message.from !== instance) tracker.apply(typeof message.pbx === 'string' ? message.pbx : null);
    } catch {
      tracker.apply(null); // unreadable: assume anything changed
    }
  });
  // A subscriber that lost its connection missed messages: treat everything as changed.
  subscriber.on('ready', () => tracker.apply(null));
  subscriber.on('error', (error: Error) => log.warn({ err: error }, 'change broadcast: Redis subscriber error'));
  await subscriber.subscribe(channel);
  tracker.onChange((pbxId) => {
    publishChange(redis, channel, pbxId, instance).catch((error: unknown) => log.warn({ err: error }, 'change broadcast: publish failed'));
  });
  return async () => {
    await subscriber.quit().catch(() => undefined);
  };
}

/**
 * For commands run outside the server (the CLI): tells running instances, when Redis connects
 * them, that data changed; without Redis they see it within their cache TTL.
 */
export async function announceChange(redisUrl: string | null, redisKeyPrefix: string, pbxId: string | null): Promise<void> {
  if (!redisUrl) return;
  const { Redis } = await import('ioredis');
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await redis.connect();
    await redis.incr(sharedVersionKey(redisKeyPrefix, pbxId));
    await publishChange(redis, changeChannel(redisKeyPrefix), pbxId);
  } finally {
    redis.disconnect();
  }
}
