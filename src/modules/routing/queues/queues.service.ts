import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { DB } from '../../../db/schema.js';
import { restore, softDelete } from '../../../platform/soft-delete.js';
import type { AppContext } from '../../../platform/context.js';
import { collectFieldErrors, NotFound, ValidationFailed, type FieldErrors } from '../../../platform/errors.js';
import { existsInPbx, refuseWhileUsed } from '../../../platform/references.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { extensionSummaries, liveExtensionIds, pbxCountry } from '../../directory/index.js';
import { guardedRoutingWrite } from '../graph/guard.js';
import type { RoutingAction } from '../events.js';
import type { QueueMemberTable, QueueTable } from '../routing.tables.js';
import { checkDestination, DESTINATION_TABLES, type DestinationInput, type DestinationType, type ResolvedDestination } from '../shared/destinations.js';
import { assertSoundFile, includedSounds } from '../shared/sound-refs.js';
import {
  findQueue,
  insertQueue,
  listQueues,
  liveUserIds,
  membersOfQueues,
  memberUsers,
  replaceMembers,
  updateQueue,
  type QueueFilters,
  type QueueMemberRow,
  type QueueRow,
} from './queues.queries.js';
import { presentQueue, presentQueueMember } from './queues.presenter.js';
import { QUEUE_DEFAULTS, type CreateQueueInput, type QueueMemberView, type QueueView, type UpdateQueueInput } from './queues.schemas.js';

export type { QueueRow };

const NOT_FOUND = 'Queue not found.';

type MemberInput = NonNullable<CreateQueueInput['members']>[number];

/** A queue's live event (routing/events.ts), from the queue as the write left it. */
const QUEUE_CHANGE = (action: RoutingAction) => (queue: { id: string; name: string }) => ({ type: 'queue' as const, id: queue.id, action, name: queue.name });

/**
 * Call queues (as Asterisk's app_queue): callers wait with music while the members are rung by the
 * strategy; when the queue is full, has no one to ring or the wait runs out, the caller goes to the
 * overflow. Every write runs in the guarded routing transaction, so the routing graph stays valid.
 */
export class QueuesService {
  constructor(private readonly ctx: AppContext) {}

  list(tenant: Tenant, filters: QueueFilters, sort: SortTerm[], page: PageRequest) {
    return listQueues(this.ctx.db, tenant, filters, sort, page);
  }

  async get(tenant: Tenant, id: string): Promise<QueueRow> {
    const row = await findQueue(this.ctx.db, tenant, id);
    if (!row) throw new NotFound(NOT_FOUND);
    return row;
  }

  async create(tenant: Tenant, body: CreateQueueInput): Promise<QueueRow> {
    const country = await this.countryFor(tenant, body.overflow);
    const id = randomUUID();
    return guardedRoutingWrite(
      this.ctx,
      tenant,
      async (trx) => {
        let overflow: ResolvedDestination = { type: 'hangup', id: null, number: null };
        let members: Array<Insertable<QueueMemberTable>> = [];
        await collectFieldErrors([
          () => this.checkSoundFiles(trx, tenant, body),
          async () => {
            if (body.overflow) overflow = await checkDestination(trx, tenant, country, body.overflow, 'overflow');
          },
          async () => {
            members = await this.checkMembers(trx, tenant, id, body.members ?? []);
          },
        ]);
        const now = this.ctx.clock.now().toISOString();
        await insertQueue(trx, {
          id,
          pbx_id: tenant.pbxId,
          name: body.name,
          strategy: body.strategy ?? QUEUE_DEFAULTS.strategy,
          max_wait_seconds: body.max_wait_seconds ?? QUEUE_DEFAULTS.max_wait_seconds,
          max_callers: body.max_callers ?? null,
          member_timeout_seconds: body.member_timeout_seconds ?? QUEUE_DEFAULTS.member_timeout_seconds,
          wrap_up_seconds: body.wrap_up_seconds ?? QUEUE_DEFAULTS.wrap_up_seconds,
          music_on_hold_id: body.music_on_hold_id ?? null,
          announcement_id: body.announcement_id ?? null,
          overflow_type: overflow.type,
          overflow_target_id: overflow.id,
          overflow_number: overflow.number,
          created_at: now,
          updated_at: now,
        });
        await replaceMembers(trx, tenant, id, members);
        return this.reread(trx, tenant, id);
      },
      QUEUE_CHANGE('created'),
    );
  }

  /** PATCH: the fields given change; `members` replaces the whole list. */
  async update(tenant: Tenant, id: string, body: UpdateQueueInput): Promise<QueueRow> {
    const country = await this.countryFor(tenant, body.overflow);
    return guardedRoutingWrite(
      this.ctx,
      tenant,
      async (trx) => {
        if (!(await findQueue(trx, tenant, id))) throw new NotFound(NOT_FOUND);
        let overflow: ResolvedDestination | undefined;
        let members: Array<Insertable<QueueMemberTable>> | undefined;
        await collectFieldErrors([
          () => this.checkSoundFiles(trx, tenant, body),
          async () => {
            if (!body.overflow) return;
            if (body.overflow.type === 'queue' && body.overflow.id === id) throw ValidationFailed.field('overflow.id', 'A queue cannot overflow into itself.');
            overflow = await checkDestination(trx, tenant, country, body.overflow, 'overflow');
          },
          async () => {
            if (body.members) members = await this.checkMembers(trx, tenant, id, body.members);
          },
        ]);
        const changes: Updateable<QueueTable> = { updated_at: this.ctx.clock.now().toISOString() };
        if (body.name !== undefined) changes.name = body.name;
        if (body.strategy !== undefined) changes.strategy = body.strategy;
        if (body.max_wait_seconds !== undefined) changes.max_wait_seconds = body.max_wait_seconds;
        if (body.max_callers !== undefined) changes.max_callers = body.max_callers;
        if (body.member_timeout_seconds !== undefined) changes.member_timeout_seconds = body.member_timeout_seconds;
        if (body.wrap_up_seconds !== undefined) changes.wrap_up_seconds = body.wrap_up_seconds;
        if (body.music_on_hold_id !== undefined) changes.music_on_hold_id = body.music_on_hold_id;
        if (body.announcement_id !== undefined) changes.announcement_id = body.announcement_id;
        if (overflow) {
          changes.overflow_type = overflow.type;
          changes.overflow_target_id = overflow.id;
          changes.overflow_number = overflow.number;
        }
        await updateQueue(trx, tenant, id, changes);
        if (members) await replaceMembers(trx, tenant, id, members);
        return this.reread(trx, tenant, id);
      },
      QUEUE_CHANGE('updated'),
    );
  }

  /** Soft delete; refused (409 with `used_by`) while an IVR, call flow, phone number or another queue sends calls here. */
  async delete(tenant: Tenant, id: string): Promise<void> {
    await guardedRoutingWrite(
      this.ctx,
      tenant,
      async (trx) => {
        const queue = await findQueue(trx, tenant, id);
        if (!queue) throw new NotFound(NOT_FOUND);
        await refuseWhileUsed(trx, tenant, 'queue', id, 'queue');
        await softDelete(trx, this.ctx.clock, 'queues', tenant, id, NOT_FOUND);
        return queue;
      },
      QUEUE_CHANGE('deleted'),
    );
  }

  /**
   * Brings a deleted queue back. Its sound files and overflow target must still be live (else 422
   * naming the field: restore or repoint those first); members whose user or extension was deleted
   * meanwhile are dropped from the list.
   */
  restore(tenant: Tenant, id: string): Promise<QueueRow> {
    return guardedRoutingWrite(
      this.ctx,
      tenant,
      async (trx) => {
        await restore(trx, this.ctx.clock, 'queues', tenant, id, NOT_FOUND);
        const row = await this.reread(trx, tenant, id);
        await collectFieldErrors([() => this.checkSoundFiles(trx, tenant, row), () => this.checkStoredOverflow(trx, tenant, row)]);
        const members = await membersOfQueues(trx, tenant, [id]);
        const live = await this.liveMembers(trx, tenant, members);
        if (live.length < members.length)
          await replaceMembers(
            trx,
            tenant,
            id,
            live.map((member, index) => ({ ...member, position: index + 1 })),
          );
        return row;
      },
      QUEUE_CHANGE('restored'),
    );
  }

  /** Rows as the contract shows them: members always, the relations of `include` when asked. */
  async present(tenant: Tenant, rows: QueueRow[], include: Set<string>): Promise<QueueView[]> {
    const db = this.ctx.db;
    const members = await membersOfQueues(
      db,
      tenant,
      rows.map((row) => row.id),
    );
    const idsOf = (type: QueueMemberRow['member_type']) => [...new Set(members.filter((m) => m.member_type === type).map((m) => m.member_id))];
    const users = include.has('members.user') ? await memberUsers(db, tenant, idsOf('user')) : undefined;
    const extensions = include.has('members.extension') ? await extensionSummaries(db, tenant, idsOf('extension')) : undefined;
    const sound = await includedSounds(db, tenant, rows, include);

    const byQueue = new Map<string, QueueMemberView[]>();
    for (const member of members) {
      const list = byQueue.get(member.queue_id) ?? [];
      list.push(presentQueueMember(member, users, extensions));
      byQueue.set(member.queue_id, list);
    }
    return rows.map((row) => presentQueue(row, { members: byQueue.get(row.id) ?? [], sound, include }));
  }

  /** The PBX country reads an external overflow number written without a country code; no other destination needs it. */
  private async countryFor(tenant: Tenant, overflow: DestinationInput | undefined): Promise<string> {
    // Read before the guarded transaction opens: pbxCountry reads through the context's handle.
    return overflow?.type === 'external' ? pbxCountry(this.ctx, tenant) : '';
  }

  private async reread(db: Kysely<DB>, tenant: Tenant, id: string): Promise<QueueRow> {
    const row = await findQueue(db, tenant, id);
    if (!row) throw new NotFound(NOT_FOUND);
    return row;
  }

  private async checkSoundFiles(db: Kysely<DB>, tenant: Tenant, fields: { music_on_hold_id?: string | null; announcement_id?: string | null }): Promise<void> {
    await collectFieldErrors([
      async () => {
        if (fields.music_on_hold_id) await assertSoundFile(db, tenant, fields.music_on_hold_id, 'music', 'music_on_hold_id');
      },
      async () => {
        if (fields.announcement_id) await assertSoundFile(db, tenant, fields.announcement_id, 'announcement', 'announcement_id');
      },
    ]);
  }

  /** A restored queue's overflow must still lead somewhere live. */
  private async checkStoredOverflow(db: Kysely<DB>, tenant: Tenant, row: QueueRow): Promise<void> {
    const type = row.overflow_type as DestinationType;
    if (type === 'hangup' || type === 'external' || !row.overflow_target_id) return;
    if (!(await existsInPbx(db, tenant, DESTINATION_TABLES[type], row.overflow_target_id)))
      throw ValidationFailed.field('overflow.id', `The queue overflows into a ${type.replace('_', ' ')} that was deleted; restore it first.`);
  }

  /** Each member once, each a live user or extension of the PBX (a disabled user may be one); errors name `members.N.id`. */
  private async checkMembers(db: Kysely<DB>, tenant: Tenant, queueId: string, members: MemberInput[]): Promise<Array<Insertable<QueueMemberTable>>> {
    const idsOf = (type: MemberInput['type']) => [...new Set(members.filter((m) => m.type === type).map((m) => m.id))];
    const live = { user: await liveUserIds(db, tenant, idsOf('user')), extension: await liveExtensionIds(db, tenant, idsOf('extension')) };
    const errors: FieldErrors = {};
    const seen = new Set<string>();
    members.forEach((member, index) => {
      const key = `${member.type}:${member.id}`;
      if (seen.has(key)) errors[`members.${index}.id`] = ['The member appears more than once in the list.'];
      else if (!live[member.type].has(member.id)) errors[`members.${index}.id`] = [`The selected ${member.type} does not exist.`];
      seen.add(key);
    });
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
    return members.map((member, index) => ({
      queue_id: queueId,
      pbx_id: tenant.pbxId,
      member_type: member.type,
      member_id: member.id,
      penalty: member.penalty ?? 0,
      position: index + 1,
    }));
  }

  private async liveMembers(db: Kysely<DB>, tenant: Tenant, members: QueueMemberRow[]): Promise<QueueMemberRow[]> {
    const idsOf = (type: QueueMemberRow['member_type']) => members.filter((m) => m.member_type === type).map((m) => m.member_id);
    const live = { user: await liveUserIds(db, tenant, idsOf('user')), extension: await liveExtensionIds(db, tenant, idsOf('extension')) };
    return members.filter((member) => live[member.member_type].has(member.member_id));
  }
}
