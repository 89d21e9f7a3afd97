import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { loadTelephonySnapshot, type TelephonySnapshot } from '../../directory/index.js';
import { loadRoutingConfiguration, type RoutingConfiguration } from '../../routing/index.js';
import { publicHolidays, tenantHolidays } from '../../workforce/index.js';

/**
 * Everything the compiler reads, as plain data (no database handle, no clock): the loader fills
 * it from what the directory and routing export (each reads its own tables), the compiler turns it
 * into files, and a test can build or shuffle one by hand. Only live rows are in it (soft-deleted
 * ones are gone; a reference to one is a dangling reference the compiler turns into a hang-up).
 * Secrets stay sealed (`SecretBox`): the files carry a token in their place, opened for delivery
 * only (`SealedSecret` in `render.ts`).
 */
export interface ConfigurationSnapshot extends TelephonySnapshot, RoutingConfiguration {
  pbx: { id: string; name: string; countryCode: string; timezone: string; halfDaySplit: string };
  /** Holidays over `from`..`to` (two calendar years: the time conditions' dates are explicit). */
  holidays: { from: string; to: string; public: Record<string, SnapshotHoliday[]>; tenant: SnapshotHoliday[] };
}

/** The compiler's names for the directory's and the routing's rows. */
export type {
  TelephonyUser as SnapshotUser,
  TelephonyExtension as SnapshotExtension,
  TelephonySipDevice as SnapshotSipDevice,
  TelephonyWebrtcAccount as SnapshotWebrtcAccount,
  TelephonyTwinning as SnapshotTwinning,
  TelephonyForward as SnapshotForward,
  TelephonyDnd as SnapshotDnd,
  TelephonyPhoneNumber as SnapshotPhoneNumber,
  TelephonyCallerIdentity as SnapshotCallerIdentity,
} from '../../directory/index.js';
export type {
  RoutingSoundFile as SnapshotSoundFile,
  RoutingCallFlow as SnapshotCallFlow,
  RoutingIvr as SnapshotIvr,
  RoutingIvrStep as SnapshotIvrStep,
  QueueModel as SnapshotQueue,
} from '../../routing/index.js';

export interface SnapshotHoliday {
  date: string;
  name: string;
  halfDay: boolean;
}

/**
 * Reads the tenant's directory and routing at once (the PBX row, then both domains' loaders in
 * parallel). `now` picks the holiday window (this calendar year and the next, in the PBX's zone);
 * tests pass a fixed one. Rows are sorted by id so that the snapshot itself is stable; the
 * compiler does not rely on it.
 */
export async function loadConfigurationSnapshot(db: Kysely<DB>, tenant: Tenant, options: { now?: Date } = {}): Promise<ConfigurationSnapshot> {
  const pbxId = tenant.pbxId;
  const pbx = await db
    .selectFrom('pbxes')
    .select(['id', 'name', 'country_code', 'timezone', 'half_day_split'])
    .where('id', '=', pbxId)
    .executeTakeFirstOrThrow();
  const [telephony, routing] = await Promise.all([loadTelephonySnapshot(db, tenant), loadRoutingConfiguration(db, tenant)]);

  // Holidays of every country a time condition names, and the tenant's own, for two years.
  const year = Number((options.now ?? new Date()).toLocaleString('en-CA', { timeZone: pbx.timezone, year: 'numeric' }));
  const from = `${year}-01-01`;
  const to = `${year + 1}-12-31`;
  const countries = new Set<string>();
  for (const flow of routing.callFlows)
    for (const node of flow.nodes) if (node.type === 'time_condition' && node.public_holidays_country) countries.add(node.public_holidays_country);
  const publicDays: Record<string, SnapshotHoliday[]> = {};
  for (const country of [...countries].sort())
    publicDays[country] = (await publicHolidays(country, null, from, to)).map((day) => ({ date: day.date, name: day.name, halfDay: day.half_day }));
  const tenantDays = (await tenantHolidays(db, tenant, null, from, to)).map((day) => ({ date: day.date, name: day.name, halfDay: day.half_day }));

  return {
    pbx: { id: pbx.id, name: pbx.name, countryCode: pbx.country_code, timezone: pbx.timezone, halfDaySplit: pbx.half_day_split },
    ...telephony,
    ...routing,
    holidays: { from, to, public: publicDays, tenant: tenantDays },
  };
}
