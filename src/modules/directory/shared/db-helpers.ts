import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { isUniqueViolation, uniqueViolationTarget } from '../../../db/errors.js';

type VoipTable = 'extensions' | 'phone_numbers' | 'caller_identities';

/**
 * Runs `insert` with the next numeric engine id of the PBX for `table`. Two concurrent inserts
 * may pick the same id; the unique index refuses the second, which then takes the next one.
 */
export async function withNextVoipId<T>(db: Kysely<DB>, table: VoipTable, pbxId: string, insert: (voipId: number) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.max('voip_id').as('max'))
      .where('pbx_id', '=', pbxId)
      .executeTakeFirst();
    try {
      return await insert(Number(row?.max ?? 0) + 1);
    } catch (error) {
      if (attempt < 5 && isUniqueViolation(error) && uniqueViolationTarget(error).includes('voip_id')) continue;
      throw error;
    }
  }
}
