import type { Executor } from '../../db/database.js';
import type { Tenant } from '../../platform/tenancy.js';

/**
 * Who the parties of a call are, as the PBX names them (calls: the AMI event listener and the
 * simulated engine name a call record's caller, callee and receivers by number and device).
 * One statement each, whatever the number of names asked for.
 */

/** A party of a call: its user (null for an extension or device of nobody) and the name to show. */
export interface CallParty {
  userId: string | null;
  name: string;
}

const fullName = (first: string | null, last: string | null) => `${first ?? ''} ${last ?? ''}`.trim();

/** Live extensions of the PBX by number, each with its live user when it has one. */
export async function extensionsByNumber(db: Executor, tenant: Tenant, numbers: string[]): Promise<Map<string, CallParty>> {
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
  return new Map(rows.map((row) => [row.number, { userId: row.id, name: row.id ? fullName(row.first_name, row.last_name) : '' }]));
}

/** A SIP device as the PBX names it (its user name): the device, its live user, its home extension. */
export interface DeviceParty extends CallParty {
  /** The device's id, name and home extension (the calls engine's presence events). */
  id: string;
  deviceName: string;
  extensionId: string | null;
  /** Deleted since (the PBX may still know it until the next push). */
  deleted: boolean;
  /** The live home extension's number. */
  extension: string | null;
}

/** The PBX's SIP devices by user name, with their live user (its name, else the device's) and their live extension's number. */
export async function devicesByUsername(db: Executor, tenant: Tenant, usernames: string[]): Promise<Map<string, DeviceParty>> {
  const wanted = [...new Set(usernames.filter(Boolean))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('sip_devices as d')
    .leftJoin('users as u', (join) => join.onRef('u.id', '=', 'd.user_id').on('u.deleted_at', 'is', null))
    .leftJoin('extensions as e', (join) => join.onRef('e.id', '=', 'd.extension_id').on('e.deleted_at', 'is', null))
    .select(['d.id', 'd.username', 'd.name as device_name', 'd.extension_id', 'd.deleted_at', 'u.id as user_id', 'u.first_name', 'u.last_name', 'e.number'])
    .where('d.pbx_id', '=', tenant.pbxId)
    .where('d.username', 'in', wanted)
    .execute();
  return new Map(
    rows.map((row) => [
      row.username,
      {
        id: row.id,
        deviceName: row.device_name,
        extensionId: row.extension_id,
        deleted: row.deleted_at !== null,
        userId: row.user_id,
        name: row.user_id ? fullName(row.first_name, row.last_name) : row.device_name,
        extension: row.number,
      },
    ]),
  );
}
