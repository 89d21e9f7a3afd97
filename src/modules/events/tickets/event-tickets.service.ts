import { randomBytes } from 'node:crypto';
import { storedCredential, tokenFromHeader } from '../../../platform/auth/authenticate.js';
import type { Principal } from '../../../platform/auth/principal.js';
import type { AppContext } from '../../../platform/context.js';
import { sha256, tokenKind } from '../../../platform/crypto.js';
import { Unauthorized } from '../../../platform/errors.js';
import { deleteExpiredEventTickets, insertEventTicket, takeEventTicket } from './event-tickets.queries.js';

/** How long a ticket may wait to be used. */
export const TICKET_TTL_SECONDS = 30;

/** `tkt_` and 32 base64url characters (192 random bits): never a token's shape, so never taken for one. */
const TICKET_SHAPE = /^tkt_[A-Za-z0-9_-]{32}$/;

const REFUSED = 'Unknown, used or expired ticket: ask POST /events/tickets for a new one.';

export interface IssuedTicket {
  ticket: string;
  expires_at: string;
}

/**
 * One-time stream tickets: a browser cannot send an Authorization header with EventSource or a
 * WebSocket, and a token in a URL ends up in logs. So the caller asks for a ticket with its header,
 * and passes the ticket (`?ticket=`) instead: it works once, within 30 seconds, as the credential
 * that asked, which must still be valid then (a token revoked meanwhile refuses it).
 */
export class EventTicketsService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'clock'>) {}

  /** A new ticket for `principal`, who authenticated with `authorization`. */
  async issue(principal: Principal, authorization: string | undefined): Promise<IssuedTicket> {
    const token = tokenFromHeader(authorization);
    const kind = token === null ? null : tokenKind(token);
    // The route accepts only principals resolved from this very header, and only those bound to a PBX.
    if (token === null || kind === null || principal.pbxId === null) throw new Unauthorized();
    const now = this.ctx.clock.now();
    const expiresAt = new Date(now.getTime() + TICKET_TTL_SECONDS * 1000).toISOString();
    await deleteExpiredEventTickets(this.ctx.db, now.toISOString());
    const ticket = `tkt_${randomBytes(24).toString('base64url')}`;
    await insertEventTicket(this.ctx.db, {
      ticket_hash: sha256(ticket),
      pbx_id: principal.pbxId,
      credential_kind: kind,
      credential_hash: sha256(token),
      principal_id: principal.id,
      expires_at: expiresAt,
      created_at: now.toISOString(),
    });
    return { ticket, expires_at: expiresAt };
  }

  /** The principal a ticket stands for; the ticket is used up. 401 when it is unknown, used, expired or its credential is no longer valid. */
  async redeem(ticket: string): Promise<Principal> {
    if (!TICKET_SHAPE.test(ticket)) throw new Unauthorized(REFUSED);
    const row = await takeEventTicket(this.ctx.db, sha256(ticket));
    const now = this.ctx.clock.nowMs();
    if (!row || Date.parse(row.expires_at) <= now) throw new Unauthorized(REFUSED);
    const credential = await storedCredential(this.ctx.db, row.credential_kind, row.credential_hash);
    if (!credential || credential.principal.id !== row.principal_id || (credential.expiresAt !== null && credential.expiresAt <= now)) {
      throw new Unauthorized(REFUSED);
    }
    return credential.principal;
  }
}
