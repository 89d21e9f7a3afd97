import type { Kysely } from 'kysely';

/** What this migration reads and writes, as the tables stood when it was written. */
interface Tables {
  api_keys: { id: string; kind: string; pbx_id: string | null; name: string; updated_at: string };
  settings: { key: string };
  users: { pbx_id: string; email: string };
}

/** The demo seed's internal keys were named so: `Internal services (acme)` for the tenant at acme.example. */
const DEMO_INTERNAL_KEY = /^Internal services \(([a-z0-9-]+)\)$/;
/** platform/auth/api-keys.ts's OPERATOR_WIDE_MARK; a migration keeps the value it was written with. */
const OPERATOR_WIDE_MARK = '[operator-wide] ';

/**
 * Internal keys act for one PBX from now on; a key without a PBX reaches every PBX and must say so.
 * Until now every internal key was stored without a PBX and resolved platform-wide. The demo
 * seed's keys, one per tenant, are bound to their tenant (found by its users' e-mail domain); any
 * other internal key without a PBX was made by the operator through the CLI and stays
 * operator-wide, its name now marked as such. Data only: it runs the same on both dialects.
 */
export async function up(db: Kysely<Tables>): Promise<void> {
  const unbound = await db.selectFrom('api_keys').select(['id', 'name']).where('kind', '=', 'internal').where('pbx_id', 'is', null).execute();
  if (unbound.length === 0) return;
  const demoSeeded = await db.selectFrom('settings').select('key').where('key', '=', 'demo_seed').executeTakeFirst();
  const now = new Date().toISOString();
  for (const key of unbound) {
    const slug = demoSeeded ? DEMO_INTERNAL_KEY.exec(key.name)?.[1] : undefined;
    const tenants = slug ? await db.selectFrom('users').select('pbx_id').distinct().where('email', 'like', `%@${slug}.example`).execute() : [];
    if (tenants.length === 1) {
      await db.updateTable('api_keys').set({ pbx_id: tenants[0].pbx_id, updated_at: now }).where('id', '=', key.id).execute();
    } else if (!key.name.startsWith(OPERATOR_WIDE_MARK)) {
      await db
        .updateTable('api_keys')
        .set({ name: `${OPERATOR_WIDE_MARK}${key.name}`.slice(0, 255), updated_at: now })
        .where('id', '=', key.id)
        .execute();
    }
  }
}

/** Nothing to undo: a key bound to its PBX, or a marked name, works as before under the old code. */
export async function down(): Promise<void> {}
