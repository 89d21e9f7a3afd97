import type { Migration } from 'kysely';
import * as foundation from './0001_foundation.js';

/** Every migration in order; the name is the version recorded in the database. */
export const migrations: Record<string, Migration> = {
  '0001_foundation': foundation,
};
