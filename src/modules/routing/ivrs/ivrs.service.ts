import { randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import { restore, softDelete } from '../../../platform/soft-delete.js';
import type { AppContext } from '../../../platform/context.js';
import { collectFieldErrors, NotFound, ValidationFailed } from '../../../platform/errors.js';
import { refuseWhileUsed } from '../../../platform/references.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { guardedRoutingWrite } from '../graph/guard.js';
import type { RoutingAction } from '../events.js';
import type { IvrTable } from '../routing.tables.js';
import { assertSoundFile, includedSounds } from '../shared/sound-refs.js';
import { liveStepsOfIvrs } from './ivr-steps.queries.js';
import { presentIvrStep } from './ivr-steps.presenter.js';
import { presentIvr } from './ivrs.presenter.js';
import { assertStepTarget, IVR_NOT_FOUND, stepTargets } from './ivr-steps.service.js';
import type { CreateIvrInput, IvrView, UpdateIvrInput } from './ivrs.schemas.js';
import { findIvr, insertIvr, listIvrs, updateIvr, type IvrFilters, type IvrRow } from './ivrs.queries.js';
import type { Executor } from '../../../db/database.js';

export type { IvrRow };

const DEFAULTS = { default_action: 'hangup', timeout_seconds: 5, max_repeats: 2 } as const;

/** A menu's live event (routing/events.ts), from the menu as the write left it. */
const IVR_CHANGE = (action: RoutingAction) => (ivr: { id: string; name: string }) => ({ type: 'ivr' as const, id: ivr.id, action, name: ivr.name });

/** IVR menus: an announcement, then a step per key (call flows or other menus), with a timeout behaviour. */
export class IvrsService {
  constructor(private readonly ctx: AppContext) {}

  private async ivr(db: Executor, tenant: Tenant, id: string, trashed: 'without' | 'only' = 'without'): Promise<IvrRow> {
    const row = await findIvr(db, tenant, id, trashed);
    if (!row) throw new NotFound(IVR_NOT_FOUND);
    return row;
  }

  /** The body's references: its own PBX, an announcement and music of the PBX of the right types. */
  private checkReferences(db: Executor, tenant: Tenant, body: UpdateIvrInput): Promise<void> {
    return collectFieldErrors([
      async () => {
        if (body.pbx_id !== undefined && body.pbx_id !== tenant.pbxId) throw ValidationFailed.field('pbx_id', 'The selected pbx id is invalid.');
      },
      async () => {
        if (body.announcement !== undefined) await assertSoundFile(db, tenant, body.announcement, 'announcement', 'announcement');
      },
      async () => {
        if (body.musicOnHold) await assertSoundFile(db, tenant, body.musicOnHold, 'music', 'musicOnHold');
      },
    ]);
  }

  /** The contract's IVR: always with its live steps; sound files and step targets when asked. */
  async present(tenant: Tenant, rows: IvrRow[], include: Set<string>): Promise<IvrView[]> {
    const db = this.ctx.db;
    const steps = await liveStepsOfIvrs(
      db,
      tenant,
      rows.map((row) => row.id),
    );
    const targets = include.has('steps.target') ? await stepTargets(db, tenant, [...steps.values()].flat()) : null;
    const sound = await includedSounds(db, tenant, rows, include);
    return rows.map((row) =>
      presentIvr(row, {
        steps: (steps.get(row.id) ?? []).map((step) => presentIvrStep(step, targets ? (targets.get(step.id) ?? null) : undefined)),
        sound,
        include,
      }),
    );
  }

  list(tenant: Tenant, filters: IvrFilters, sort: SortTerm[], page: PageRequest) {
    return listIvrs(this.ctx.db, tenant, filters, sort, page);
  }

  get(tenant: Tenant, id: string): Promise<IvrRow> {
    return this.ivr(this.ctx.db, tenant, id);
  }

  create(tenant: Tenant, body: CreateIvrInput): Promise<IvrRow> {
    return guardedRoutingWrite(
      this.ctx,
      tenant,
      async (trx) => {
        await this.checkReferences(trx, tenant, body);
        const id = randomUUID();
        const now = this.ctx.clock.now().toISOString();
        await insertIvr(trx, {
          id,
          pbx_id: tenant.pbxId,
          name: body.name,
          comment: body.comment ?? null,
          announcement_id: body.announcement,
          music_on_hold_id: body.musicOnHold ?? null,
          announcement_language: body.announcement_language ?? null,
          default_action: body.default_action ?? DEFAULTS.default_action,
          timeout_seconds: body.timeout_seconds ?? DEFAULTS.timeout_seconds,
          max_repeats: body.max_repeats ?? DEFAULTS.max_repeats,
          created_at: now,
          updated_at: now,
        });
        return this.ivr(trx, tenant, id);
      },
      IVR_CHANGE('created'),
    );
  }

  /** Changes the fields sent; `pbx_id`, when sent, must still be the caller's PBX. */
  update(tenant: Tenant, id: string, body: UpdateIvrInput): Promise<IvrRow> {
    return guardedRoutingWrite(
      this.ctx,
      tenant,
      async (trx) => {
        await this.ivr(trx, tenant, id);
        await this.checkReferences(trx, tenant, body);
        const changes: Updateable<IvrTable> = { updated_at: this.ctx.clock.now().toISOString() };
        if (body.name !== undefined) changes.name = body.name;
        if (body.comment !== undefined) changes.comment = body.comment;
        if (body.announcement !== undefined) changes.announcement_id = body.announcement;
        if (body.musicOnHold !== undefined) changes.music_on_hold_id = body.musicOnHold;
        if (body.announcement_language !== undefined) changes.announcement_language = body.announcement_language;
        if (body.default_action !== undefined) changes.default_action = body.default_action;
        if (body.timeout_seconds !== undefined) changes.timeout_seconds = body.timeout_seconds;
        if (body.max_repeats !== undefined) changes.max_repeats = body.max_repeats;
        await updateIvr(trx, tenant, id, changes);
        return this.ivr(trx, tenant, id);
      },
      IVR_CHANGE('updated'),
    );
  }

  /**
   * Soft delete, refused (409 with `used_by`) while steps of other IVRs, call-flow nodes, queue
   * overflows or phone numbers send calls to it. The menu is marked deleted before the usages are
   * read, so its own steps (a key that replays the menu) do not hold it; a refusal rolls it back.
   */
  async delete(tenant: Tenant, id: string): Promise<void> {
    await guardedRoutingWrite(
      this.ctx,
      tenant,
      async (trx) => {
        const ivr = await this.ivr(trx, tenant, id);
        await softDelete(trx, this.ctx.clock, 'ivrs', tenant, id, IVR_NOT_FOUND);
        await refuseWhileUsed(trx, tenant, 'ivr', id, 'IVR');
        return ivr;
      },
      IVR_CHANGE('deleted'),
    );
  }

  /**
   * Back with its steps, provided what it plays and where its steps lead is still there (else 422:
   * restore those first). Checked after the restore, so a step that replays the menu counts.
   */
  restore(tenant: Tenant, id: string): Promise<IvrRow> {
    return guardedRoutingWrite(
      this.ctx,
      tenant,
      async (trx) => {
        await restore(trx, this.ctx.clock, 'ivrs', tenant, id, IVR_NOT_FOUND);
        const row = await this.ivr(trx, tenant, id);
        const steps = (await liveStepsOfIvrs(trx, tenant, [id])).get(id) ?? [];
        await collectFieldErrors([
          () => assertSoundFile(trx, tenant, row.announcement_id, 'announcement', 'announcement'),
          async () => {
            if (row.music_on_hold_id) await assertSoundFile(trx, tenant, row.music_on_hold_id, 'music', 'musicOnHold');
          },
          ...steps.map((step) => () => assertStepTarget(trx, tenant, step.target_type, step.target_id, `steps.${step.option}.target_id`)),
        ]);
        return row;
      },
      IVR_CHANGE('restored'),
    );
  }
}
