/**
 * The one way required work time learns about approved absences (issue #14, absence requests,
 * fills it). No absence table exists yet, so there is nothing approved to count: the answer is an
 * empty map. Required work time already subtracts whatever this returns, per day, and never goes
 * below zero; the next issue changes this function, not its callers.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Tenant } from '../../platform/tenancy.js';
import type { CalendarDay } from './workforce.tables.js';

/** Seconds of approved absence per day of `from`..`to` (days without any are left out). */
export type AbsenceLedger = (db: Kysely<DB>, tenant: Tenant, employeeId: string, from: CalendarDay, to: CalendarDay) => Promise<Map<CalendarDay, number>>;

export const approvedAbsenceSeconds: AbsenceLedger = async () => new Map();
