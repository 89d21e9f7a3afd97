import type { IvrOption, IvrStepView, StepTargetType } from './ivr-steps.schemas.js';
import type { IvrStepRow } from './ivr-steps.queries.js';

/** A step's target as `include=target` shows it. */
export type StepTargetView = NonNullable<IvrStepView['target']>;

/** A step as the contract shows it; `target` only when asked for (undefined leaves it out, null: gone). */
export function presentIvrStep(row: IvrStepRow, target?: StepTargetView | null): IvrStepView {
  return {
    id: row.id,
    pbx_id: row.pbx_id,
    ivr_id: row.ivr_id,
    target_type: row.target_type as StepTargetType,
    target_id: row.target_id,
    name: row.name,
    option: row.option as IvrOption,
    language: row.language as IvrStepView['language'],
    voip_ivr_btn_id: row.voip_ivr_btn_id,
    ...(target === undefined ? {} : { target }),
    created_at: row.created_at,
    updated_at: row.updated_at,
    deleted_at: row.deleted_at,
  };
}
