import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { STEP_TARGET_TYPES, type CallFlowNode } from '../../routing/index.js';
import { publicHolidays, tenantHolidays } from '../../workforce/index.js';

/**
 * Everything the compiler reads, as plain data (no database handle, no clock): the loader fills
 * it, the compiler turns it into files, and a test can build or shuffle one by hand. Only live
 * rows are in it (soft-deleted ones are gone; a reference to one is a dangling reference the
 * compiler turns into a hang-up). Secrets stay sealed (`SecretBox`); see `secrets.ts`.
 */
export interface ConfigurationSnapshot {
  pbx: { id: string; name: string; countryCode: string; timezone: string; halfDaySplit: string };
  users: SnapshotUser[];
  extensions: SnapshotExtension[];
  sipDevices: SnapshotSipDevice[];
  webrtcAccounts: SnapshotWebrtcAccount[];
  twinnings: SnapshotTwinning[];
  forwards: SnapshotForward[];
  dnds: SnapshotDnd[];
  phoneNumbers: SnapshotPhoneNumber[];
  callerIdentities: SnapshotCallerIdentity[];
  soundFiles: SnapshotSoundFile[];
  callFlows: SnapshotCallFlow[];
  ivrs: SnapshotIvr[];
  queues: SnapshotQueue[];
  /** Holidays over `from`..`to` (two calendar years: the time conditions' dates are explicit). */
  holidays: { from: string; to: string; public: Record<string, SnapshotHoliday[]>; tenant: SnapshotHoliday[] };
}

export interface SnapshotUser {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  language: string;
  active: boolean;
  /** `email_only` or `email_and_phone` (null: the mailbox keeps messages). */
  voicemailDestination: string | null;
}
export interface SnapshotExtension {
  id: string;
  number: string;
  name: string;
  userId: string | null;
  voicemailEnabled: boolean;
}
/** Enabled, live devices only. */
export interface SnapshotSipDevice {
  id: string;
  name: string;
  username: string;
  secretSealed: string;
  transport: string;
  codecs: string[];
  userId: string | null;
  extensionId: string | null;
  roamingExtensionId: string | null;
  roamingUserId: string | null;
}
export interface SnapshotWebrtcAccount {
  userId: string;
  username: string;
  passwordSealed: string;
  voicemailPinSealed: string | null;
}
/** Enabled twinnings only. */
export interface SnapshotTwinning {
  id: string;
  userId: string;
  type: 'mobile' | 'teams';
  phoneNumber: string | null;
  backupPhoneNumber: string | null;
  delay: number;
  dialStrategy: 'gsm_only' | 'voip_only' | 'voip_and_gsm_fallback';
  fmcEnabled: boolean;
}
/** Enabled forwards only. */
export interface SnapshotForward {
  id: string;
  userId: string;
  type: 'unconditional' | 'busy' | 'no_answer' | 'unavailable';
  destinationType: 'number' | 'extension' | 'voicemail';
  destination: string | null;
  delay: number;
}
/** Active do-not-disturb rules only. */
export interface SnapshotDnd {
  id: string;
  userId: string;
  type: 'internal' | 'external';
  callerIdentityId: string | null;
  extensionId: string | null;
}
export interface SnapshotPhoneNumber {
  id: string;
  number: string;
  label: string | null;
  destinationType: string;
  destinationId: string | null;
}
export interface SnapshotCallerIdentity {
  id: string;
  userId: string | null;
  phoneNumberId: string;
  name: string;
  externalCallerNumber: string;
  isDefault: boolean;
}
export interface SnapshotSoundFile {
  id: string;
  name: string;
  type: 'announcement' | 'music';
  language: string | null;
}
export interface SnapshotCallFlow {
  id: string;
  name: string;
  description: string | null;
  entry: string;
  nodes: CallFlowNode[];
}
export interface SnapshotIvrStep {
  option: string;
  name: string | null;
  target: { type: 'call_flow' | 'ivr'; id: string } | null;
  language: string | null;
}
export interface SnapshotIvr {
  id: string;
  name: string;
  comment: string | null;
  announcementId: string;
  musicOnHoldId: string | null;
  language: string | null;
  defaultAction: 'hangup' | 'repeat' | 'default_step';
  timeoutSeconds: number;
  maxRepeats: number;
  steps: SnapshotIvrStep[];
}
export interface SnapshotQueue {
  id: string;
  name: string;
  strategy: 'ringall' | 'round_robin' | 'least_recent' | 'fewest_calls' | 'random';
  maxWaitSeconds: number;
  maxCallers: number | null;
  memberTimeoutSeconds: number;
  wrapUpSeconds: number;
  musicOnHoldId: string | null;
  announcementId: string | null;
  overflow: { type: string; id: string | null; number: string | null };
  /** In the queue's order. */
  members: Array<{ type: 'user' | 'extension'; id: string; penalty: number }>;
}
export interface SnapshotHoliday {
  date: string;
  name: string;
  halfDay: boolean;
}

const STEP_KIND = new Map<string, 'call_flow' | 'ivr'>([
  [STEP_TARGET_TYPES.call_flow, 'call_flow'],
  [STEP_TARGET_TYPES.ivr, 'ivr'],
]);

const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Reads the tenant's directory and routing at once. `now` picks the holiday window (this
 * calendar year and the next, in the PBX's zone); tests pass a fixed one. Rows are sorted by id
 * so that the snapshot itself is stable; the compiler does not rely on it.
 */
export async function loadConfigurationSnapshot(db: Kysely<DB>, tenant: Tenant, options: { now?: Date } = {}): Promise<ConfigurationSnapshot> {
  const pbxId = tenant.pbxId;
  const pbx = await db
    .selectFrom('pbxes')
    .select(['id', 'name', 'country_code', 'timezone', 'half_day_split'])
    .where('id', '=', pbxId)
    .executeTakeFirstOrThrow();
  const [users, extensions, devices, webrtc, twinnings, forwards, dnds, numbers, identities, sounds, flows, ivrs, steps, queues, members] = await Promise.all([
    db
      .selectFrom('users')
      .select(['id', 'first_name', 'last_name', 'email', 'language', 'status', 'voicemail_destination'])
      .where('pbx_id', '=', pbxId)
      .where('deleted_at', 'is', null)
      .execute(),
    db
      .selectFrom('extensions')
      .select(['id', 'number', 'name', 'user_id', 'voicemail_enabled'])
      .where('pbx_id', '=', pbxId)
      .where('deleted_at', 'is', null)
      .execute(),
    db
      .selectFrom('sip_devices')
      .select(['id', 'name', 'username', 'secret_sealed', 'transport', 'codecs', 'user_id', 'extension_id', 'roaming_extension_id', 'roaming_user_id'])
      .where('pbx_id', '=', pbxId)
      .where('deleted_at', 'is', null)
      .where('enabled', '=', 1)
      .execute(),
    db.selectFrom('webrtc_configurations').select(['user_id', 'username', 'password_sealed', 'voicemail_pin_sealed']).where('pbx_id', '=', pbxId).execute(),
    // Twinnings carry no tenant column: they are the tenant's through their user.
    db
      .selectFrom('twinnings')
      .innerJoin('users', 'users.id', 'twinnings.user_id')
      .select([
        'twinnings.id',
        'twinnings.user_id',
        'twinnings.type',
        'twinnings.phone_number',
        'twinnings.backup_phone_number',
        'twinnings.delay',
        'twinnings.dial_strategy',
        'twinnings.fmc_enabled',
      ])
      .where('users.pbx_id', '=', pbxId)
      .where('users.deleted_at', 'is', null)
      .where('twinnings.status', '=', 'enabled')
      .execute(),
    db
      .selectFrom('forwards')
      .select(['id', 'user_id', 'type', 'destination_type', 'destination', 'delay'])
      .where('pbx_id', '=', pbxId)
      .where('enabled', '=', 1)
      .execute(),
    db
      .selectFrom('user_dnds')
      .select(['id', 'user_id', 'type', 'caller_identity_id', 'extension_id'])
      .where('pbx_id', '=', pbxId)
      .where('status', '=', 1)
      .execute(),
    db
      .selectFrom('phone_numbers')
      .select(['id', 'number', 'label', 'destination_type', 'destination_id'])
      .where('pbx_id', '=', pbxId)
      .where('deleted_at', 'is', null)
      .execute(),
    db
      .selectFrom('caller_identities')
      .select(['id', 'user_id', 'phone_number_id', 'name', 'external_caller_number', 'is_default'])
      .where('pbx_id', '=', pbxId)
      .where('deleted_at', 'is', null)
      .execute(),
    db.selectFrom('sound_files').select(['id', 'name', 'type', 'language']).where('pbx_id', '=', pbxId).where('deleted_at', 'is', null).execute(),
    db.selectFrom('call_flows').select(['id', 'name', 'description', 'entry', 'nodes']).where('pbx_id', '=', pbxId).where('deleted_at', 'is', null).execute(),
    db
      .selectFrom('ivrs')
      .select(['id', 'name', 'comment', 'announcement_id', 'music_on_hold_id', 'announcement_language', 'default_action', 'timeout_seconds', 'max_repeats'])
      .where('pbx_id', '=', pbxId)
      .where('deleted_at', 'is', null)
      .execute(),
    db
      .selectFrom('ivr_steps')
      .select(['ivr_id', 'option', 'name', 'target_type', 'target_id', 'language'])
      .where('pbx_id', '=', pbxId)
      .where('deleted_at', 'is', null)
      .execute(),
    db.selectFrom('queues').selectAll().where('pbx_id', '=', pbxId).where('deleted_at', 'is', null).execute(),
    db.selectFrom('queue_members').selectAll().where('pbx_id', '=', pbxId).execute(),
  ]);

  // Holidays of every country a time condition names, and the tenant's own, for two years.
  const year = Number((options.now ?? new Date()).toLocaleString('en-CA', { timeZone: pbx.timezone, year: 'numeric' }));
  const from = `${year}-01-01`;
  const to = `${year + 1}-12-31`;
  const parsedFlows = flows.map((flow) => ({ ...flow, nodes: JSON.parse(flow.nodes) as CallFlowNode[] }));
  const countries = new Set<string>();
  for (const flow of parsedFlows)
    for (const node of flow.nodes) if (node.type === 'time_condition' && node.public_holidays_country) countries.add(node.public_holidays_country);
  const publicDays: Record<string, SnapshotHoliday[]> = {};
  for (const country of [...countries].sort())
    publicDays[country] = (await publicHolidays(country, null, from, to)).map((day) => ({ date: day.date, name: day.name, halfDay: day.half_day }));
  const tenantDays = (await tenantHolidays(db, tenant, null, from, to)).map((day) => ({ date: day.date, name: day.name, halfDay: day.half_day }));

  const membersOf = new Map<string, typeof members>();
  for (const member of [...members].sort((a, b) => a.position - b.position || (a.member_id < b.member_id ? -1 : 1))) {
    const list = membersOf.get(member.queue_id) ?? [];
    list.push(member);
    membersOf.set(member.queue_id, list);
  }
  const stepsOf = new Map<string, typeof steps>();
  for (const step of steps) stepsOf.set(step.ivr_id, [...(stepsOf.get(step.ivr_id) ?? []), step]);

  return {
    pbx: { id: pbx.id, name: pbx.name, countryCode: pbx.country_code, timezone: pbx.timezone, halfDaySplit: pbx.half_day_split },
    users: users
      .map((u) => ({
        id: u.id,
        firstName: u.first_name,
        lastName: u.last_name,
        email: u.email,
        language: u.language,
        active: u.status === 'active',
        voicemailDestination: u.voicemail_destination,
      }))
      .sort(byId),
    extensions: extensions
      .map((e) => ({ id: e.id, number: e.number, name: e.name, userId: e.user_id, voicemailEnabled: e.voicemail_enabled === 1 }))
      .sort(byId),
    sipDevices: devices
      .map((d) => ({
        id: d.id,
        name: d.name,
        username: d.username,
        secretSealed: d.secret_sealed,
        transport: d.transport,
        codecs: JSON.parse(d.codecs) as string[],
        userId: d.user_id,
        extensionId: d.extension_id,
        roamingExtensionId: d.roaming_extension_id,
        roamingUserId: d.roaming_user_id,
      }))
      .sort(byId),
    webrtcAccounts: webrtc
      .map((w) => ({ userId: w.user_id, username: w.username, passwordSealed: w.password_sealed, voicemailPinSealed: w.voicemail_pin_sealed }))
      .sort((a, b) => (a.userId < b.userId ? -1 : 1)),
    twinnings: twinnings
      .map((t) => ({
        id: t.id,
        userId: t.user_id,
        type: t.type,
        phoneNumber: t.phone_number,
        backupPhoneNumber: t.backup_phone_number,
        delay: t.delay,
        dialStrategy: t.dial_strategy,
        fmcEnabled: t.fmc_enabled === 1,
      }))
      .sort(byId),
    forwards: forwards
      .map((f) => ({ id: f.id, userId: f.user_id, type: f.type, destinationType: f.destination_type, destination: f.destination, delay: f.delay }))
      .sort(byId),
    dnds: dnds.map((d) => ({ id: d.id, userId: d.user_id, type: d.type, callerIdentityId: d.caller_identity_id, extensionId: d.extension_id })).sort(byId),
    phoneNumbers: numbers
      .map((n) => ({ id: n.id, number: n.number, label: n.label, destinationType: n.destination_type, destinationId: n.destination_id }))
      .sort(byId),
    callerIdentities: identities
      .map((c) => ({
        id: c.id,
        userId: c.user_id,
        phoneNumberId: c.phone_number_id,
        name: c.name,
        externalCallerNumber: c.external_caller_number,
        isDefault: c.is_default === 1,
      }))
      .sort(byId),
    soundFiles: sounds.map((s) => ({ id: s.id, name: s.name, type: s.type, language: s.language })).sort(byId),
    callFlows: parsedFlows.map((f) => ({ id: f.id, name: f.name, description: f.description, entry: f.entry, nodes: f.nodes })).sort(byId),
    ivrs: ivrs
      .map((i) => ({
        id: i.id,
        name: i.name,
        comment: i.comment,
        announcementId: i.announcement_id,
        musicOnHoldId: i.music_on_hold_id,
        language: i.announcement_language,
        defaultAction: i.default_action,
        timeoutSeconds: i.timeout_seconds,
        maxRepeats: i.max_repeats,
        steps: (stepsOf.get(i.id) ?? [])
          .map((s) => {
            const kind = STEP_KIND.get(s.target_type);
            return { option: s.option, name: s.name, target: kind ? { type: kind, id: s.target_id } : null, language: s.language };
          })
          .sort((a, b) => (a.option < b.option ? -1 : a.option > b.option ? 1 : 0)),
      }))
      .sort(byId),
    queues: queues
      .map((q) => ({
        id: q.id,
        name: q.name,
        strategy: q.strategy,
        maxWaitSeconds: q.max_wait_seconds,
        maxCallers: q.max_callers,
        memberTimeoutSeconds: q.member_timeout_seconds,
        wrapUpSeconds: q.wrap_up_seconds,
        musicOnHoldId: q.music_on_hold_id,
        announcementId: q.announcement_id,
        overflow: { type: q.overflow_type, id: q.overflow_target_id, number: q.overflow_number },
        members: (membersOf.get(q.id) ?? []).map((m) => ({ type: m.member_type, id: m.member_id, penalty: m.penalty })),
      }))
      .sort(byId),
    holidays: { from, to, public: publicDays, tenant: tenantDays },
  };
}
