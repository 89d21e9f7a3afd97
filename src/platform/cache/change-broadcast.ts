import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { printableRedisUrl, SharedRedis, type RedisLink } from '../redis.js';
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
 * While Redis is down nothing is published (the change counters, shared-versions.ts, make the
 * caches exact again once it is back) and the subscriber reconnects by itself.
 */
export async function connectChangeBroadcast(
  tracker: ChangeTracker,
  redis: RedisLink,
  channel: string,
  log: { warn(object: object, message: string): void },
): Promise<() => Promise<void>> {
  const instance = randomUUID();
  const subscriber = redis.client.duplicate(SharedRedis.options());
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
  // Its outages are the main connection's, logged there; one that fails while the main connection works is warned once.
  let checking = false;
  subscriber.on('error', (error: Error) => {
    if (checking) return;
    checking = true;
    setTimeout(() => {
      if (redis.up && subscriber.status !== 'ready') log.warn({ err: error }, 'change broadcast: the Redis subscriber cannot connect while Redis answers');
      checking = false;
    }, 2000).unref();
  });
  await subscriber.connect();
  await subscriber.subscribe(channel);
  tracker.onChange((pbxId) => {
    const message: ChangeMessage = { from: instance, pbx: pbxId };
    void redis.attempt(
      'broadcast',
      (client) => client.publish(channel, JSON.stringify(message)),
      () => 0,
    );
  });
  return async () => {
    await subscriber.quit().catch(() => subscriber.disconnect());
  };
}

/**
 * For commands run outside the server (the CLI): tells running instances, when Redis connects
 * them, that data changed; without Redis they see it within their cache TTL.
 */
export async function announceChange(redisUrl: string | null, redisKeyPrefix: string, pbxId: string | null): Promise<void> {
  if (!redisUrl) return;
  const { Redis } = await import('ioredis');
  const redis = new Redis(
    redisUrl,
    SharedRedis.options(() => true),
  );
  let failure: Error | null = null;
  redis.on('error', (error: Error) => (failure ??= error));
  try {
    await redis.connect().catch((error: Error) => {
      throw new Error(`Redis is unreachable at REDIS_URL=${printableRedisUrl(redisUrl)} (${(failure ?? error).message})`, { cause: failure ?? error });
    });
    await redis.incr(sharedVersionKey(redisKeyPrefix, pbxId));
    await publishChange(redis, changeChannel(redisKeyPrefix), pbxId);
  } finally {
    redis.disconnect();
  }
}
