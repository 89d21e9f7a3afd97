import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { EventTicketTable } from '../events.tables.js';

export type EventTicketRow = Selectable<EventTicketTable>;

export async function insertEventTicket(db: Kysely<DB>, row: Insertable<EventTicketTable>): Promise<void> {
  await db.insertInto('event_tickets').values(row).execute();
}

/** Deletes the ticket with this digest and answers it: two requests with one ticket, one gets it. */
export async function takeEventTicket(db: Kysely<DB>, ticketHash: string): Promise<EventTicketRow | undefined> {
  return db.deleteFrom('event_tickets').where('ticket_hash', '=', ticketHash).returningAll().executeTakeFirst();
}

/** Tickets that expired unused, across tenants. */
export async function deleteExpiredEventTickets(db: Kysely<DB>, now: string): Promise<void> {
  await db.deleteFrom('event_tickets').where('expires_at', '<=', now).execute();
}
