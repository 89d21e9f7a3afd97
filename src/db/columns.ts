/**
 * Column types shared by every table: booleans are stored as 0/1 integers and timestamps as ISO
 * 8601 text in both dialects, so one set of queries serves SQLite and PostgreSQL alike. A leaf:
 * table files import it and nothing else of ours.
 */
import type { Generated } from 'kysely';

/** 0 or 1; columns with a database default are Generated so inserts may leave them out. */
export type Flag = Generated<number>;
export type Timestamp = string;
/** A calendar day, `YYYY-MM-DD` text (zone-less: the workforce's contract days, holidays and absences). */
export type CalendarDay = string;
