import { TRASHED_FILTERS } from '../db/soft-delete.js';
import { StringEnum } from './schema.js';

/** The `filter[trashed]` parameter of a list of `rows` (e.g. "contacts"), with who may use it where that is restricted. */
export const TrashedFilterParam = (rows: string, restriction?: string) =>
  StringEnum(TRASHED_FILTERS, { description: `Soft-deleted ${rows}: without (default), with, or only.${restriction ? ` ${restriction}` : ''}` });
