import type { Insertable, Updateable } from 'kysely';
import type { Tenant } from '../../../platform/tenancy.js';
import type { AmiCdrLegTable, AmiSettingsTable, PlacedCallTable } from '../calls.tables.js';
import type { Executor } from '../../../db/database.js';

export function findAmiSettings(db: Executor, tenant: Tenant) {
  return db.selectFrom('ami_settings').selectAll().where('pbx_id', '=', tenant.pbxId).executeTakeFirst();
}

export function enabledAmiSettings(db: Executor) {
  return db.selectFrom('ami_settings').selectAll().where('enabled', '=', 1).execute();
}

export async function saveAmiSettings(db: Executor, row: Insertable<AmiSettingsTable>): Promise<void> {
  const { pbx_id: _pbx, created_at: _created, ...changes } = row;
  await db
    .insertInto('ami_settings')
    .values(row)
    .onConflict((oc) => oc.column('pbx_id').doUpdateSet(changes))
    .execute();
}

export async function deleteAmiSettings(db: Executor, tenant: Tenant): Promise<number> {
  const result = await db.deleteFrom('ami_settings').where('pbx_id', '=', tenant.pbxId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function insertPlacedCall(db: Executor, row: Insertable<PlacedCallTable>): Promise<void> {
  await db.insertInto('placed_calls').values(row).execute();
}

export function findPlacedCallByAction(db: Executor, actionId: string) {
  return db.selectFrom('placed_calls').selectAll().where('action_id', '=', actionId).executeTakeFirst();
}

export function findPlacedCallByUniqueid(db: Executor, tenant: Tenant, uniqueid: string) {
  return db.selectFrom('placed_calls').selectAll().where('pbx_id', '=', tenant.pbxId).where('uniqueid', '=', uniqueid).executeTakeFirst();
}

export function findPlacedCall(db: Executor, tenant: Tenant, id: string) {
  return db.selectFrom('placed_calls').selectAll().where('pbx_id', '=', tenant.pbxId).where('id', '=', id).executeTakeFirst();
}

export async function updatePlacedCall(db: Executor, tenant: Tenant, id: string, changes: Updateable<PlacedCallTable>): Promise<void> {
  await db.updateTable('placed_calls').set(changes).where('pbx_id', '=', tenant.pbxId).where('id', '=', id).execute();
}

/** The user owning an extension number of the PBX (to name the parties of an AMI Cdr). */
export async function usersByExtension(db: Executor, tenant: Tenant, numbers: string[]): Promise<Map<string, { userId: string; name: string }>> {
  const wanted = numbers.filter(Boolean);
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('extensions as e')
    .innerJoin('users as u', 'u.id', 'e.user_id')
    .select(['e.number', 'u.id', 'u.first_name', 'u.last_name'])
    .where('e.pbx_id', '=', tenant.pbxId)
    .where('e.deleted_at', 'is', null)
    .where('e.number', 'in', wanted)
    .execute();
  return new Map(rows.map((row) => [row.number, { userId: row.id, name: `${row.first_name} ${row.last_name}`.trim() }]));
}

/** The PBX's own time zone (the default of its Asterisk host's). */
export async function pbxTimezone(db: Executor, tenant: Tenant): Promise<string> {
  const row = await db.selectFrom('pbxes').select('timezone').where('id', '=', tenant.pbxId).executeTakeFirst();
  return row?.timezone ?? 'UTC';
}

/** The event listener's login outcome: failures counted, and the settings marked failing past the limit. */
export async function recordListenerLogin(
  db: Executor,
  tenant: Tenant,
  outcome: { failures: number; failingSince: string | null; error: string | null },
): Promise<void> {
  await db
    .updateTable('ami_settings')
    .set({ login_failures: outcome.failures, failing_since: outcome.failingSince, last_error: outcome.error?.slice(0, 255) ?? null })
    .where('pbx_id', '=', tenant.pbxId)
    .execute();
}

/** How many enabled PBXs have failing AMI settings (for /metrics). */
export async function countFailingAmiSettings(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('ami_settings')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('enabled', '=', 1)
    .where('failing_since', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * The zone of the PBX host's clock as the settings say it: `pbx_timezone` when set (`explicit`),
 * else the PBX's own time zone (which the event listener replaces by the offset the host's Cdrs
 * show, see AmiEventListener).
 */
export async function amiZoneSettingOf(db: Executor, tenant: Tenant): Promise<{ name: string; explicit: boolean }> {
  const row = await db
    .selectFrom('pbxes')
    .leftJoin('ami_settings', 'ami_settings.pbx_id', 'pbxes.id')
    .select(['pbxes.timezone', 'ami_settings.pbx_timezone'])
    .where('pbxes.id', '=', tenant.pbxId)
    .executeTakeFirst();
  return row?.pbx_timezone ? { name: row.pbx_timezone, explicit: true } : { name: row?.timezone ?? 'UTC', explicit: false };
}

/** The zone of the PBX host's clock as the settings say it (`amiZoneSettingOf`). */
export async function amiZoneOf(db: Executor, tenant: Tenant): Promise<string> {
  return (await amiZoneSettingOf(db, tenant)).name;
}

/** Extensions of the PBX by number, with their user when they have one (to name and place the parties of an AMI Cdr). */
export async function extensionsByNumber(db: Executor, tenant: Tenant, numbers: string[]): Promise<Map<string, { userId: string | null; name: string }>> {
  const wanted = [...new Set(numbers.filter(Boolean))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('extensions as e')
    .leftJoin('users as u', (join) => join.onRef('u.id', '=', 'e.user_id').on('u.deleted_at', 'is', null))
    .select(['e.number', 'u.id', 'u.first_name', 'u.last_name'])
    .where('e.pbx_id', '=', tenant.pbxId)
    .where('e.deleted_at', 'is', null)
    .where('e.number', 'in', wanted)
    .execute();
  return new Map(rows.map((row) => [row.number, { userId: row.id, name: row.id ? `${row.first_name ?? ''} ${row.last_name ?? ''}`.trim() : '' }]));
}

export async function findUserName(db: Executor, tenant: Tenant, userId: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select(['first_name', 'last_name']).where('pbx_id', '=', tenant.pbxId).where('id', '=', userId).executeTakeFirst();
  return row ? `${row.first_name} ${row.last_name}`.trim() : undefined;
}

/** Keeps one Cdr event of a call (a repeated event changes nothing). */
export async function saveCdrLeg(db: Executor, tenant: Tenant, leg: Omit<Insertable<AmiCdrLegTable>, 'pbx_id'>): Promise<void> {
  await db
    .insertInto('ami_cdr_legs')
    .values({ ...leg, pbx_id: tenant.pbxId })
    .onConflict((oc) => oc.columns(['pbx_id', 'uniqueid']).doNothing())
    .execute();
}

export function cdrLegsOf(db: Executor, tenant: Tenant, callKey: string) {
  return db.selectFrom('ami_cdr_legs').selectAll().where('pbx_id', '=', tenant.pbxId).where('call_key', '=', callKey).orderBy('created_at').execute();
}

/** The PBX's SIP devices by user name, with their user and extension (to name the receivers of an AMI Cdr). */
export async function devicesByUsername(
  db: Executor,
  tenant: Tenant,
  usernames: string[],
): Promise<Map<string, { userId: string | null; name: string; extension: string | null }>> {
  const wanted = [...new Set(usernames.filter(Boolean))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('sip_devices as d')
    .leftJoin('users as u', (join) => join.onRef('u.id', '=', 'd.user_id').on('u.deleted_at', 'is', null))
    .leftJoin('extensions as e', (join) => join.onRef('e.id', '=', 'd.extension_id').on('e.deleted_at', 'is', null))
    .select(['d.username', 'd.name as device_name', 'u.id as user_id', 'u.first_name', 'u.last_name', 'e.number'])
    .where('d.pbx_id', '=', tenant.pbxId)
    .where('d.username', 'in', wanted)
    .execute();
  return new Map(
    rows.map((row) => [
      row.username,
      {
        userId: row.user_id,
        name: row.user_id ? `${row.first_name ?? ''} ${row.last_name ?? ''}`.trim() : row.device_name,
        extension: row.number,
      },
    ]),
  );
}

/** The names of the PBX's queues by id (the `via` of a receiver an AMI Cdr shows rung by a queue). */
export async function queueNamesOf(db: Executor, tenant: Tenant, ids: string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter(Boolean))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('queues').select(['id', 'name']).where('pbx_id', '=', tenant.pbxId).where('id', 'in', wanted).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** A warning about the settings (the PBX host's clock disagreeing with `pbx_timezone`), shown as `connection.last_error`. */
export async function recordSettingsWarning(db: Executor, tenant: Tenant, warning: string): Promise<void> {
  await db
    .updateTable('ami_settings')
    .set({ last_error: warning.slice(0, 255) })
    .where('pbx_id', '=', tenant.pbxId)
    .execute();
}
