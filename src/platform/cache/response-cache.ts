import type { FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import { tenantDataCache, type StampedCache } from './stamped-cache.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Whole JSON responses kept serialized (by the route's own response schema) under a key such as
 * the user id, until the tenant's data changes or the cache TTL passes: a hot read answered from
 * memory costs neither queries nor serialization. Only for responses that depend on nothing but
 * the key and the tenant's data.
 */
export class ResponseCache {
  private readonly cache: StampedCache<Buffer>;

  constructor(ctx: Pick<AppContext, 'changes' | 'config' | 'clock'>, maxEntries: number) {
    this.cache = tenantDataCache(ctx, maxEntries);
  }

  /** Sends the cached body, or `produce()`'s payload serialized and kept; synchronous on a hit. */
  serve(reply: FastifyReply, key: string, pbxId: string, produce: () => Promise<unknown>): void | Promise<void> {
    reply.header('content-type', JSON_TYPE);
    const cached = this.cache.get(key);
    if (cached === undefined) return this.fill(reply, key, pbxId, produce);
    reply.send(cached);
  }

  private async fill(reply: FastifyReply, key: string, pbxId: string, produce: () => Promise<unknown>): Promise<void> {
    const stamp = this.cache.stamp();
    // A Buffer goes to the socket as it is; a string would be encoded again on every send.
    const body = Buffer.from(reply.serialize(await produce()) as string);
    this.cache.set(key, pbxId, stamp, body);
    reply.send(body);
  }
}
