import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import { pagedQuery, type PageRequest, type SortTerm } from '../../../db/paging.js';
import { valuesQuery } from '../../../db/values-query.js';
import { trashedScope, type TrashedFilter } from '../../../db/soft-delete.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { IvrStepTable } from '../routing.tables.js';
import { IVR_OPTIONS } from './ivr-steps.schemas.js';
import type { Executor } from '../../../db/database.js';

export type IvrStepRow = Selectable<IvrStepTable>;

export interface IvrStepFilters {
  option?: string;
  trashed?: TrashedFilter;
}

/** A step's place in the menu's order (default, 0-9, *, #), as SQL, for `sort=option`. */
const optionRank = sql<number>`case ${sql.join(
  IVR_OPTIONS.map((option, rank) => sql`when ${sql.ref('option')} = ${option} then ${sql.lit(rank)}`),
  sql` `,
)} else ${sql.lit(IVR_OPTIONS.length)} end`;

/** The same order in code, for the steps embedded in an IVR. */
export const optionOrder = (a: { option: string }, b: { option: string }) =>
  (IVR_OPTIONS as readonly string[]).indexOf(a.option) - (IVR_OPTIONS as readonly string[]).indexOf(b.option);

/** What selects an IVR's steps: the tenant, the IVR, and each filter that is set. */
interface IvrStepScope {
  pbxId: string;
  ivrId: string;
  option?: string;
  trashed?: TrashedFilter;
}

function stepsOf(db: Executor, scope: IvrStepScope) {
  let query = db.selectFrom('ivr_steps').where('pbx_id', '=', scope.pbxId).where('ivr_id', '=', scope.ivrId);
  query = trashedScope(query, scope.trashed);
  if (scope.option) query = query.where('option', '=', scope.option);
  return query;
}

const ivrStepPage = pagedQuery({ scoped: stepsOf, columns: (query) => query.selectAll().select(optionRank.as('option_rank')), choices: ['trashed'] });

/** A page of an IVR's steps; `sort=option` follows the menu's order, not the characters'. */
export async function listIvrSteps(db: Executor, tenant: Tenant, ivrId: string, filters: IvrStepFilters, sort: SortTerm[], page: PageRequest) {
  const terms = sort.map((term) => (term.field === 'option' ? { ...term, field: 'option_rank' } : term));
  const { rows, total } = await ivrStepPage(db, { pbxId: tenant.pbxId, ivrId, ...filters }, terms, page);
  return { rows: rows.map(({ option_rank: _rank, ...row }) => row), total };
}

export function findIvrStep(db: Executor, tenant: Tenant, ivrId: string, id: string, trashed: TrashedFilter = 'without'): Promise<IvrStepRow | undefined> {
  return stepsOf(db, { pbxId: tenant.pbxId, ivrId, trashed }).selectAll().where('id', '=', id).executeTakeFirst();
}

// An IVR list's steps: compiled once per number of IVRs.
const liveStepsOfIvrIds = valuesQuery((db, v: { pbxId: string; ivrIds: readonly string[] }) =>
  db.selectFrom('ivr_steps').selectAll().where('pbx_id', '=', v.pbxId).where('ivr_id', 'in', v.ivrIds).where('deleted_at', 'is', null),
);

/** The live steps of these IVRs, each IVR's in the menu's order. */
export async function liveStepsOfIvrs(db: Executor, tenant: Tenant, ivrIds: string[]): Promise<Map<string, IvrStepRow[]>> {
  const byIvr = new Map<string, IvrStepRow[]>();
  if (ivrIds.length === 0) return byIvr;
  const rows = await liveStepsOfIvrIds(db, { pbxId: tenant.pbxId, ivrIds });
  for (const row of rows.sort(optionOrder)) {
    const list = byIvr.get(row.ivr_id) ?? [];
    list.push(row);
    byIvr.set(row.ivr_id, list);
  }
  return byIvr;
}

export async function insertIvrStep(db: Executor, row: Insertable<IvrStepTable>): Promise<void> {
  await db.insertInto('ivr_steps').values(row).execute();
}

export async function updateIvrStep(db: Executor, tenant: Tenant, id: string, changes: Updateable<IvrStepTable>): Promise<void> {
  await db.updateTable('ivr_steps').set(changes).where('pbx_id', '=', tenant.pbxId).where('id', '=', id).execute();
}

/** Soft-deletes (`now`) or restores (null) one step of an IVR. */
export async function setIvrStepDeleted(db: Executor, tenant: Tenant, ivrId: string, id: string, deletedAt: string | null, now: string): Promise<void> {
  await db
    .updateTable('ivr_steps')
    .set({ deleted_at: deletedAt, updated_at: now })
    .where('pbx_id', '=', tenant.pbxId)
    .where('ivr_id', '=', ivrId)
    .where('id', '=', id)
    .execute();
}
