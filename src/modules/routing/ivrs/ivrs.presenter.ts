import type { SoundFileSummaryView } from '../shared/sound-refs.js';
import type { IvrStepView } from './ivr-steps.schemas.js';
import type { IvrView } from './ivrs.schemas.js';
import type { IvrRow } from './ivrs.queries.js';

/** What an IVR's answer needs beside its row: its live steps (presented), the included sound files, and what was asked. */
export interface IvrRelations {
  steps: IvrStepView[];
  sound: (id: string | null) => SoundFileSummaryView | null;
  include: ReadonlySet<string>;
}

/** The contract's IVR: always with its live steps; the sound files only when `include` names them. */
export function presentIvr(row: IvrRow, { steps, sound, include }: IvrRelations): IvrView {
  return {
    id: row.id,
    pbx_id: row.pbx_id,
    name: row.name,
    comment: row.comment,
    announcement_id: row.announcement_id,
    announcement_language: row.announcement_language as IvrView['announcement_language'],
    music_on_hold_id: row.music_on_hold_id,
    default_action: row.default_action,
    timeout_seconds: row.timeout_seconds,
    max_repeats: row.max_repeats,
    steps,
    ...(include.has('announcement') ? { announcement: sound(row.announcement_id) } : {}),
    ...(include.has('musicOnHold') ? { musicOnHold: sound(row.music_on_hold_id) } : {}),
    created_at: row.created_at,
    updated_at: row.updated_at,
    deleted_at: row.deleted_at,
  };
}
