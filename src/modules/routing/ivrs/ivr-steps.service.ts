import { randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { AppContext } from '../../../platform/context.js';
import { NotFound, ValidationFailed } from '../../../platform/errors.js';
import { existsInPbx } from '../../../platform/references.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { guardUnique } from '../../../platform/unique.js';
import { guardedRoutingWrite } from '../graph/guard.js';
import type { RoutingAction } from '../events.js';
import type { IvrStepTable } from '../routing.tables.js';
import { STEP_TARGET_TYPES } from '../usages.js';
import type { CreateIvrStepInput, IvrStepView, StepTargetKind, StepTargetType, UpdateIvrStepInput } from './ivr-steps.schemas.js';
import { presentIvrStep, type StepTargetView } from './ivr-steps.presenter.js';
import { findIvrStep, insertIvrStep, listIvrSteps, setIvrStepDeleted, updateIvrStep, type IvrStepFilters, type IvrStepRow } from './ivr-steps.queries.js';
import { findIvr, liveCallFlowNames, liveIvrNames } from './ivrs.queries.js';
import type { Executor } from '../../../db/database.js';

export type { IvrStepRow };

export const IVR_NOT_FOUND = 'IVR not found.';
const STEP_NOT_FOUND = 'IVR step not found.';

/** A step's change is its menu's (routing/events.ts): the menu changed, through this step. */
const STEP_CHANGE =
  (action: RoutingAction) =>
  ({ ivr, step }: { ivr: { id: string; name: string }; step: IvrStepRow }) => ({
    type: 'ivr' as const,
    id: ivr.id,
    action: 'updated' as const,
    name: ivr.name,
    step: { id: step.id, option: step.option, action },
  });
const OPTION_TAKEN = [{ match: 'option', field: 'option', message: 'The option has already been taken.' }];

/** The kind of resource a target type names, and the table it lives in. */
const KIND_OF: Record<StepTargetType, StepTargetKind> = { [STEP_TARGET_TYPES.call_flow]: 'call_flow', [STEP_TARGET_TYPES.ivr]: 'ivr' };
const TABLE_OF: Record<StepTargetKind, 'call_flows' | 'ivrs'> = { call_flow: 'call_flows', ivr: 'ivrs' };

/** Each step's target `{id, name, type}`, null when it is no longer a live call flow or IVR of the PBX. */
export async function stepTargets(db: Executor, tenant: Tenant, steps: IvrStepRow[]): Promise<Map<string, StepTargetView | null>> {
  const idsOf = (kind: StepTargetKind) => [...new Set(steps.filter((step) => KIND_OF[step.target_type as StepTargetType] === kind).map((s) => s.target_id))];
  const [flows, ivrs] = await Promise.all([liveCallFlowNames(db, tenant, idsOf('call_flow')), liveIvrNames(db, tenant, idsOf('ivr'))]);
  const names: Record<StepTargetKind, Map<string, string>> = { call_flow: flows, ivr: ivrs };
  return new Map(
    steps.map((step) => {
      const kind = KIND_OF[step.target_type as StepTargetType];
      const name = kind ? names[kind].get(step.target_id) : undefined;
      return [step.id, name === undefined ? null : { id: step.target_id, name, type: kind }];
    }),
  );
}

/** 422 on `field` unless the target is a live call flow or IVR of the PBX, as its type says. */
export async function assertStepTarget(db: Executor, tenant: Tenant, type: string, id: string, field = 'target_id'): Promise<void> {
  const kind = KIND_OF[type as StepTargetType];
  if (!kind || !(await existsInPbx(db, tenant, TABLE_OF[kind], id)))
    throw ValidationFailed.field(
      field,
      `The selected ${field.replace(/_/g, ' ')} is invalid: it must be a live ${kind ? kind.replace('_', ' ') : 'call flow or IVR'} of the PBX.`,
    );
}

/** The steps of an IVR menu: one live step per key, each sending the caller to a call flow or another IVR. */
export class IvrStepsService {
  constructor(private readonly ctx: AppContext) {}

  private async liveIvr(db: Executor, tenant: Tenant, ivrId: string): Promise<{ id: string; name: string }> {
    const ivr = await findIvr(db, tenant, ivrId);
    if (!ivr) throw new NotFound(IVR_NOT_FOUND);
    return ivr;
  }

  private async step(db: Executor, tenant: Tenant, ivrId: string, id: string, trashed: 'without' | 'only' = 'without'): Promise<IvrStepRow> {
    const row = await findIvrStep(db, tenant, ivrId, id, trashed);
    if (!row) throw new NotFound(STEP_NOT_FOUND);
    return row;
  }

  async present(tenant: Tenant, rows: IvrStepRow[], include: Set<string>): Promise<IvrStepView[]> {
    const targets = include.has('target') ? await stepTargets(this.ctx.db, tenant, rows) : null;
    return rows.map((row) => presentIvrStep(row, targets ? (targets.get(row.id) ?? null) : undefined));
  }

  async list(tenant: Tenant, ivrId: string, filters: IvrStepFilters, sort: SortTerm[], page: PageRequest) {
    await this.liveIvr(this.ctx.db, tenant, ivrId);
    return listIvrSteps(this.ctx.db, tenant, ivrId, filters, sort, page);
  }

  async get(tenant: Tenant, ivrId: string, id: string): Promise<IvrStepRow> {
    await this.liveIvr(this.ctx.db, tenant, ivrId);
    return this.step(this.ctx.db, tenant, ivrId, id);
  }

  async create(tenant: Tenant, ivrId: string, body: CreateIvrStepInput): Promise<IvrStepRow> {
    return guardedRoutingWrite(
      this.ctx,
      tenant,
      async (trx) => {
        const ivr = await this.liveIvr(trx, tenant, ivrId);
        await assertStepTarget(trx, tenant, body.target_type, body.target_id);
        const id = randomUUID();
        const now = this.ctx.clock.now().toISOString();
        await guardUnique(OPTION_TAKEN, () =>
          insertIvrStep(trx, {
            id,
            pbx_id: tenant.pbxId,
            ivr_id: ivrId,
            option: body.option,
            name: body.name ?? null,
            target_type: body.target_type,
            target_id: body.target_id,
            language: body.language ?? null,
            voip_ivr_btn_id: body.voip_ivr_btn_id ?? null,
            created_at: now,
            updated_at: now,
          }),
        );
        return { ivr, step: await this.step(trx, tenant, ivrId, id) };
      },
      STEP_CHANGE('created'),
    ).then(({ step }) => step);
  }

  async update(tenant: Tenant, ivrId: string, id: string, body: UpdateIvrStepInput): Promise<IvrStepRow> {
    return guardedRoutingWrite(
      this.ctx,
      tenant,
      async (trx) => {
        const ivr = await this.liveIvr(trx, tenant, ivrId);
        const row = await this.step(trx, tenant, ivrId, id);
        const changes: Updateable<IvrStepTable> = { updated_at: this.ctx.clock.now().toISOString() };
        if (body.target_type !== undefined || body.target_id !== undefined) {
          changes.target_type = body.target_type ?? row.target_type;
          changes.target_id = body.target_id ?? row.target_id;
          await assertStepTarget(trx, tenant, changes.target_type, changes.target_id);
        }
        if (body.option !== undefined) changes.option = body.option;
        if (body.name !== undefined) changes.name = body.name;
        if (body.language !== undefined) changes.language = body.language;
        if (body.voip_ivr_btn_id !== undefined) changes.voip_ivr_btn_id = body.voip_ivr_btn_id;
        await guardUnique(OPTION_TAKEN, () => updateIvrStep(trx, tenant, id, changes));
        return { ivr, step: await this.step(trx, tenant, ivrId, id) };
      },
      STEP_CHANGE('updated'),
    ).then(({ step }) => step);
  }

  /** Soft delete: the key is free again for a new step. */
  async delete(tenant: Tenant, ivrId: string, id: string): Promise<void> {
    await guardedRoutingWrite(
      this.ctx,
      tenant,
      async (trx) => {
        const ivr = await this.liveIvr(trx, tenant, ivrId);
        const step = await this.step(trx, tenant, ivrId, id);
        const now = this.ctx.clock.now().toISOString();
        await setIvrStepDeleted(trx, tenant, ivrId, id, now, now);
        return { ivr, step };
      },
      STEP_CHANGE('deleted'),
    );
  }

  /** Back into the menu, unless its key has been given to another step meanwhile or its target is gone (422). */
  async restore(tenant: Tenant, ivrId: string, id: string): Promise<IvrStepRow> {
    return guardedRoutingWrite(
      this.ctx,
      tenant,
      async (trx) => {
        const ivr = await this.liveIvr(trx, tenant, ivrId);
        const row = await this.step(trx, tenant, ivrId, id, 'only');
        await assertStepTarget(trx, tenant, row.target_type, row.target_id);
        await guardUnique(OPTION_TAKEN, () => setIvrStepDeleted(trx, tenant, ivrId, id, null, this.ctx.clock.now().toISOString()));
        return { ivr, step: await this.step(trx, tenant, ivrId, id) };
      },
      STEP_CHANGE('restored'),
    ).then(({ step }) => step);
  }
}
