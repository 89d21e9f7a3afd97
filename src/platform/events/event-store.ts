import { sql, type Selectable } from 'kysely';
import type { TSchema, Static } from '@sinclair/typebox';
import type { DialectName, Executor } from '../../db/database.js';
import type { Audience } from './audience.js';
import { eventKind, isEventData, type EventKind } from './event-kinds.js';
import type { EventTable } from './events.tables.js';

/** The channel PostgreSQL's NOTIFY announces committed events on; the payload is `<pbx_id>:<seq>`. */
export const EVENTS_CHANNEL = 'pbx_events';

export interface EventSubject {
  type: string;
  id: string;
}

/** What a producer publishes: the kind (registered) or its name, and data of the kind's schema. */
export interface PublishInput<S extends TSchema = TSchema> {
  pbxId: string;
  kind: EventKind<S> | string;
  subject: EventSubject;
  audience: Audience;
  data: Static<S>;
}

/** A stored event as subscribers receive it (one object shared by all of a tenant's subscribers: do not change it). */
export interface LiveEvent {
  pbxId: string;
  /** The tenant's event number: gapless, in commit order; the stream's event id. */
  seq: number;
  kind: string;
  subject: EventSubject;
  audience: Audience;
  data: unknown;
  /** When it was published, ISO 8601. */
  time: string;
}

/** The event as clients see it on the stream and in webhooks. */
export interface EventEnvelope {
  id: string;
  kind: string;
  time: string;
  tenant: string;
  subject: EventSubject;
  data: unknown;
}

export function eventEnvelope(event: LiveEvent): EventEnvelope {
  return { id: String(event.seq), kind: event.kind, time: event.time, tenant: event.pbxId, subject: event.subject, data: event.data };
}

const envelopes = new WeakMap<LiveEvent, string>();

/** `eventEnvelope` as JSON, serialized once per event however many subscribers send it. */
export function eventEnvelopeJson(event: LiveEvent): string {
  let json = envelopes.get(event);
  if (json === undefined) envelopes.set(event, (json = JSON.stringify(eventEnvelope(event))));
  return json;
}

export interface PublishOptions {
  dialect: DialectName;
  /** ISO 8601 time of the event. */
  now: string;
  /** Check `data` against the kind's schema and throw when it differs (tests and development). */
  checkData?: boolean;
}

/**
 * Stores an event in `db`, the transaction of the change it reports, and answers its number. The
 * number comes from the tenant's counter row, raised in that transaction: it stays locked until
 * the transaction ends, so a tenant's events commit in number order, and a rollback gives the
 * number back. Hold it briefly: publish late in the transaction, since other writers of the tenant
 * that publish wait for it. Given the database rather than a transaction, it opens one of its own.
 * On PostgreSQL the same statement NOTIFYs the channel, which PostgreSQL delivers on commit only.
 */
export async function publishEvent<S extends TSchema>(db: Executor, input: PublishInput<S>, options: PublishOptions): Promise<number> {
  const name = typeof input.kind === 'string' ? input.kind : input.kind.kind;
  const kind = eventKind(name);
  if (!kind) throw new Error(`event kind ${name} is not defined (defineEventKind)`);
  if (input.subject.type !== kind.subject) throw new Error(`event kind ${kind.kind} is about a ${kind.subject}, not a ${input.subject.type}`);
  if (options.checkData && !isEventData(kind, input.data)) throw new Error(`event kind ${kind.kind}: data does not match its schema`);
  if (!db.isTransaction) return db.transaction().execute((trx) => publishEvent(trx, input, options));
  const row = {
    pbx_id: input.pbxId,
    kind: kind.kind,
    subject_type: input.subject.type,
    subject_id: input.subject.id,
    audience: JSON.stringify(input.audience),
    data: JSON.stringify(input.data),
    created_at: options.now,
  };
  if (options.dialect === 'postgres') {
    // One round trip: the counter, the row and the notification.
    const result = await sql<{ seq: number }>`
      with next as (
        insert into event_counters as c (pbx_id, last_seq) values (${row.pbx_id}, 1)
        on conflict (pbx_id) do update set last_seq = c.last_seq + 1
        returning last_seq
      ), stored as (
        insert into events (pbx_id, seq, kind, subject_type, subject_id, audience, data, created_at)
        select ${row.pbx_id}, last_seq, ${row.kind}, ${row.subject_type}, ${row.subject_id}, ${row.audience}, ${row.data}, ${row.created_at} from next
        returning seq
      )
      select seq, pg_notify(${EVENTS_CHANNEL}, ${row.pbx_id}::text || ':' || seq::text) from stored`.execute(db);
    return result.rows[0].seq;
  }
  const { last_seq: seq } = await db
    .insertInto('event_counters')
    .values({ pbx_id: row.pbx_id, last_seq: 1 })
    .onConflict((oc) => oc.column('pbx_id').doUpdateSet({ last_seq: sql`event_counters.last_seq + 1` }))
    .returning('last_seq')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('events')
    .values({ ...row, seq })
    .execute();
  return seq;
}

function liveEvent(row: Selectable<EventTable>): LiveEvent {
  return {
    pbxId: row.pbx_id,
    seq: row.seq,
    kind: row.kind,
    subject: { type: row.subject_type, id: row.subject_id },
    audience: JSON.parse(row.audience) as Audience,
    data: JSON.parse(row.data) as unknown,
    time: row.created_at,
  };
}

/** The tenant's events after `afterSeq`, oldest first, at most `limit`. */
export async function readEvents(db: Executor, pbxId: string, afterSeq: number, limit: number): Promise<LiveEvent[]> {
  const rows = await db.selectFrom('events').selectAll().where('pbx_id', '=', pbxId).where('seq', '>', afterSeq).orderBy('seq').limit(limit).execute();
  return rows.map(liveEvent);
}

/** The tenant's newest and oldest stored event numbers (0 and null before its first event). */
async function retainedRange(db: Executor, pbxId: string): Promise<{ latest: number; oldest: number | null }> {
  const row = await db
    .selectNoFrom((eb) => [
      eb.selectFrom('event_counters').select('last_seq').where('pbx_id', '=', pbxId).as('latest'),
      eb
        .selectFrom('events')
        .select((e) => e.fn.min('seq').as('oldest'))
        .where('pbx_id', '=', pbxId)
        .as('oldest'),
    ])
    .executeTakeFirstOrThrow();
  return { latest: row.latest ?? 0, oldest: row.oldest ?? null };
}

/**
 * The number of the tenant's oldest stored event, or the next number to be given when none is
 * stored (all pruned, or none yet): a client that saw every event before it misses nothing.
 */
export async function oldestRetainedSeq(db: Executor, pbxId: string): Promise<number> {
  const { latest, oldest } = await retainedRange(db, pbxId);
  return oldest ?? latest + 1;
}

/** Where a subscription starts, and whether the client must first be told to reload (`reset`). */
export interface ResumePoint {
  afterSeq: number;
  reset: boolean;
}

/**
 * Where a stream resumes for a client that last saw `lastEventId` (null: a new client, live from
 * now). Resumed when every later event is still stored; otherwise (pruned past it, or an id this
 * tenant never gave, e.g. from before a restore) the client gets a reset and continues from the
 * newest event: it reloads its state over REST, which reflects everything up to there.
 */
export async function resumeFrom(db: Executor, pbxId: string, lastEventId: number | null): Promise<ResumePoint> {
  const { latest, oldest } = await retainedRange(db, pbxId);
  if (lastEventId === null) return { afterSeq: latest, reset: false };
  const resumable = lastEventId >= 0 && lastEventId <= latest && lastEventId >= (oldest ?? latest + 1) - 1;
  return resumable ? { afterSeq: lastEventId, reset: false } : { afterSeq: latest, reset: true };
}

/** Deletes events published before `before` (ISO 8601), in batches so no statement holds many locks; answers how many. */
export async function pruneEvents(db: Executor, before: string, batchSize = 5000): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await sql`
      delete from events where (pbx_id, seq) in (select pbx_id, seq from events where created_at < ${before} limit ${batchSize})`.execute(db);
    const deleted = Number(result.numAffectedRows ?? 0);
    total += deleted;
    if (deleted < batchSize) return total;
  }
}
