import { isUniqueViolation, uniqueViolationTarget } from '../db/errors.js';
import { ValidationFailed } from './errors.js';

export interface UniqueRule {
  /** A column or index name found in the violated constraint (PostgreSQL) or message (SQLite). */
  match: string;
  field: string;
  message: string;
}

/** Runs a write; a unique violation the rules recognise becomes the contract's 422. */
export async function guardUnique<T>(rules: UniqueRule[], write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const target = uniqueViolationTarget(error);
    const rule = rules.find((r) => target.includes(r.match)) ?? rules[0];
    if (!rule) throw error;
    throw ValidationFailed.field(rule.field, rule.message);
  }
}
