import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Tenant } from '../../platform/tenancy.js';

/**
 * The directory's part of what the PBX runs (config-push compiles it): the tenant's live users,
 * extensions, enabled SIP devices and twinnings, WebRTC accounts, enabled forwards, active
 * do-not-disturb rules, phone numbers and caller identities, as plain data sorted by id. Secrets
 * stay sealed.
 */
export interface TelephonySnapshot {
  users: TelephonyUser[];
  extensions: TelephonyExtension[];
  sipDevices: TelephonySipDevice[];
  webrtcAccounts: TelephonyWebrtcAccount[];
  twinnings: TelephonyTwinning[];
  forwards: TelephonyForward[];
  dnds: TelephonyDnd[];
  phoneNumbers: TelephonyPhoneNumber[];
  callerIdentities: TelephonyCallerIdentity[];
}

export interface TelephonyUser {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  language: string;
  active: boolean;
  /** `email_only` or `email_and_phone` (null: the mailbox keeps messages). */
  voicemailDestination: string | null;
}
export interface TelephonyExtension {
  id: string;
  number: string;
  name: string;
  userId: string | null;
  voicemailEnabled: boolean;
}
/** Enabled, live devices only. */
export interface TelephonySipDevice {
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
export interface TelephonyWebrtcAccount {
  userId: string;
  username: string;
  passwordSealed: string;
  voicemailPinSealed: string | null;
}
/** Enabled twinnings only. */
export interface TelephonyTwinning {
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
export interface TelephonyForward {
  id: string;
  userId: string;
  type: 'unconditional' | 'busy' | 'no_answer' | 'unavailable';
  destinationType: 'number' | 'extension' | 'voicemail';
  destination: string | null;
  delay: number;
}
/** Active do-not-disturb rules only. */
export interface TelephonyDnd {
  id: string;
  userId: string;
  type: 'internal' | 'external';
  callerIdentityId: string | null;
  extensionId: string | null;
}
export interface TelephonyPhoneNumber {
  id: string;
  number: string;
  label: string | null;
  destinationType: string;
  destinationId: string | null;
}
export interface TelephonyCallerIdentity {
  id: string;
  userId: string | null;
  phoneNumberId: string;
  name: string;
  externalCallerNumber: string;
  isDefault: boolean;
}
const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Reads the tenant's telephony at once (one round trip per table, all in parallel). */
export async function loadTelephonySnapshot(db: Kysely<DB>, tenant: Tenant): Promise<TelephonySnapshot> {
  const pbxId = tenant.pbxId;
  const [users, extensions, devices, webrtc, twinnings, forwards, dnds, numbers, identities] = await Promise.all([
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
  ]);
  return {
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
  };
}
