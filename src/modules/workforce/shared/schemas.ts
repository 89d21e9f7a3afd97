import { TrashedFilterParam } from '../../../http/soft-delete.js';
import { Type } from '@sinclair/typebox';
import { DateOnly, PbxIdParam, Uuid } from '../../../http/schema.js';

/** A calendar day in input: `YYYY-MM-DD` only (a date-time is refused with 422). */
export const Day = (description: string) => DateOnly({ description, examples: ['2026-01-01'] });

/** A local wall-clock hour, `HH:MM` (00:00-23:59). */
export const HourMinute = (description: string) => Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description, examples: ['12:00'] });

export const PbxParams = Type.Object({ pbx_id: PbxIdParam });
export const EmployeeParams = Type.Object({ pbx_id: PbxIdParam, employee_id: Uuid({ description: 'The employee (not the user) id.' }) });

/** `filter[trashed]` of administrative lists: soft-deleted rows without (default), with, or only. */
export const TrashedFilter = TrashedFilterParam('rows', 'Administrators and the PBX API key only (403 otherwise).');
