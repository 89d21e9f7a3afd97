import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { DB, PbxTable } from '../db/schema.js';
import type { Principal } from './auth/principal.js';
import type { Clock } from './clock.js';
import { Forbidden } from './errors.js';

/** The tenant every query of tenant data is scoped to. Built from the principal only. */
export interface Tenant {
  readonly pbxId: string;
}

export function tenantOf(principal: Principal): Tenant {
  if (!principal.pbxId) throw new Forbidden('This principal is not bound to a PBX.');
  return { pbxId: principal.pbxId };
}

/**
 * The tenant of a path that names its PBX (`/{pbx_id}/...`, the workforce's): the caller's own
 * PBX only. Any other id, existing or not, is the same 403, so the answer reveals nothing.
 */
export function tenantInPath(principal: Principal, pbxId: string): Tenant {
  const tenant = tenantOf(principal);
  if (tenant.pbxId !== pbxId) throw new Forbidden('You have no access to this PBX.');
  return tenant;
}

export interface NewPbx {
  name: string;
  countryCode?: string;
  timezone?: string;
  plan?: string;
  rateLimitPerMinute?: number | null;
}

/** A PBX is the tenant: every tenant row carries its id. */
export async function insertPbx(db: Kysely<DB>, clock: Clock, pbx: NewPbx): Promise<Selectable<PbxTable>> {
  const now = clock.now().toISOString();
  const row: Selectable<PbxTable> = {
    id: randomUUID(),
    name: pbx.name,
    country_code: (pbx.countryCode ?? 'LU').toUpperCase(),
    timezone: pbx.timezone ?? 'Europe/Luxembourg',
    plan: pbx.plan ?? 'standard',
    rate_limit_per_minute: pbx.rateLimitPerMinute ?? null,
    name_order: 'first_last',
    half_day_split: '12:00',
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('pbxes').values(row).execute();
  return row;
}

export function findPbx(db: Kysely<DB>, id: string) {
  return db.selectFrom('pbxes').selectAll().where('id', '=', id).executeTakeFirst();
}
