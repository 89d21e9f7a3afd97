import { Type } from '@sinclair/typebox';
import { Day } from '../../shared/index.js';

/** The longest range answered, both ends counted (the contract's limit). */
export const MAX_REQUIRED_WORK_TIME_DAYS = 100;

export const RequiredWorkTimeQuery = Type.Object({
  'filter[from]': Day('First day of the range (required).'),
  'filter[to]': Day(`Last day of the range (required, inclusive): not before filter[from], at most ${MAX_REQUIRED_WORK_TIME_DAYS} days counting both ends.`),
});
export const RequiredWorkTime = Type.Record(Type.String({ format: 'date' }), Type.Integer({ minimum: 0, description: 'Seconds of work required that day.' }), {
  description: 'Every day of the range, `YYYY-MM-DD` -> seconds (never negative).',
  examples: [{ '2026-01-05': 28800, '2026-01-06': 0 }],
});
