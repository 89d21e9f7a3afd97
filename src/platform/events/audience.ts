import type { Principal } from '../auth/principal.js';
import type { EventKind } from './event-kinds.js';

/**
 * Who among a tenant's users may receive an event, stored with it (JSON):
 * - `tenant`: every user of the tenant;
 * - `admins`: the tenant's administrators;
 * - `users`: the users named (their ids), and the administrators;
 * - `owners`: the users named alone, for records only their owner reads (a contact import), which
 *   administrators cannot read over REST either.
 * API keys do not depend on it: the event's kind says which keys receive it (`EventKind`).
 */
export type Audience =
  { scope: 'tenant' } | { scope: 'admins' } | { scope: 'users'; userIds: readonly string[] } | { scope: 'owners'; userIds: readonly string[] };

/**
 * Whether `principal` may receive an event of `kind` with `audience` in tenant `pbxId`: the one rule
 * the streams and webhook subscriptions share. It mirrors REST reads: a user reads the tenant's
 * shared state and its own records, an administrator the tenant's, the PBX key what the PBX key's
 * routes read, an integration key what its scopes read, the PBX server's key what it needs to run the
 * PBX. Internal keys receive none (they serve one purpose: WebRTC credentials).
 */
export function mayReceive(principal: Principal, event: { pbxId: string; audience: Audience }, kind: EventKind): boolean {
  if (principal.pbxId !== event.pbxId) return false;
  switch (principal.kind) {
    case 'user': {
      const { audience } = event;
      if (audience.scope === 'owners') return audience.userIds.includes(principal.userId);
      if (principal.role === 'admin') return true;
      return audience.scope === 'tenant' || (audience.scope === 'users' && audience.userIds.includes(principal.userId));
    }
    case 'pbx':
      return kind.pbxKey;
    case 'integration':
      return kind.integrationScope !== undefined && principal.scopes.includes(kind.integrationScope);
    case 'pbx_server':
      return kind.pbxServer === true;
    case 'internal':
      return false;
  }
}
