import type { Static } from '@sinclair/typebox';
import type { SettingsRow } from './settings.queries.js';
import type { WorkforceSettings } from './settings.schemas.js';

/** The tenant's workforce settings; `timezone` is the PBX's. */
export function presentSettings(row: SettingsRow): Static<typeof WorkforceSettings> {
  return { name_order: row.name_order, half_day_split: row.half_day_split, timezone: row.timezone };
}
