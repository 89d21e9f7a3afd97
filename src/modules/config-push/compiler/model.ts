import type {
  ConfigurationSnapshot,
  SnapshotCallerIdentity,
  SnapshotExtension,
  SnapshotSipDevice,
  SnapshotTwinning,
  SnapshotUser,
  SnapshotWebrtcAccount,
} from './snapshot.js';
import { compactId, displayName, e164, extensionNumber, identifier, tenantPrefix } from './escape.js';
import { secretToken, type SealedSecret } from './render.js';

/** Sorts by a text key, then by id: the output never depends on the order rows were read in. */
export function sortBy<T extends object>(items: readonly T[], key: (item: T) => string): T[] {
  const idOf = (item: T) => ('id' in item && typeof item.id === 'string' ? item.id : '');
  // Each item's key and id computed once, not at every comparison.
  const keyed = items.map((item) => ({ item, key: key(item), id: idOf(item) }));
  keyed.sort((a, b) => {
    if (a.key !== b.key) return a.key < b.key ? -1 : 1;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
  return keyed.map((entry) => entry.item);
}

/** The items under each key, each list in the items' order (what `filter` on that key returns). */
function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

const NONE: readonly never[] = [];

/** The PJSIP endpoint of the carrier trunk: the PBX host's own, not the tenant's (see the README). */
export const TRUNK = 'pbxapi-trunk';
/** The context the host's trunk delivers calls into; each tenant's dialplan file includes its numbers there. */
export const CARRIER_CONTEXT = 'pbxapi-from-carrier';

/**
 * The snapshot indexed for the compiler, with the tenant's names: every section, context, queue,
 * class and mailbox context starts with the tenant prefix and is otherwise made of ids and fixed
 * words, never of free text.
 */
export class CompileModel {
  readonly prefix: string;
  readonly users = new Map<string, SnapshotUser>();
  readonly extensions = new Map<string, SnapshotExtension>();
  readonly sounds: Map<string, ConfigurationSnapshot['soundFiles'][number]>;
  readonly flows: Map<string, ConfigurationSnapshot['callFlows'][number]>;
  readonly ivrs: Map<string, ConfigurationSnapshot['ivrs'][number]>;
  readonly queues: Map<string, ConfigurationSnapshot['queues'][number]>;
  readonly webrtc = new Map<string, SnapshotWebrtcAccount>();
  readonly identities: Map<string, SnapshotCallerIdentity>;
  readonly phoneNumbers: Map<string, ConfigurationSnapshot['phoneNumbers'][number]>;
  readonly secrets: SealedSecret[] = [];
  /**
   * The snapshot's rows by the user or extension they belong to, built at first use: the compiler
   * asks per user and per extension, and a filter of every row each time made a tenant of 5,000
   * users quadratic.
   */
  private indexes: {
    devicesByExtension: Map<string | null, SnapshotSipDevice[]>;
    devicesByUser: Map<string | null, SnapshotSipDevice[]>;
    extensionsByUser: Map<string | null, SnapshotExtension[]>;
    twinningsByUser: Map<string, SnapshotTwinning[]>;
    dndsByUser: Map<string, ConfigurationSnapshot['dnds']>;
    forwardsByUser: Map<string, ConfigurationSnapshot['forwards']>;
    identitiesByUser: Map<string | null, SnapshotCallerIdentity[]>;
  } | null = null;
  private readonly mailboxes = new Map<string, string | null>();

  constructor(readonly snapshot: ConfigurationSnapshot) {
    this.prefix = tenantPrefix(snapshot.pbx.id);
    for (const user of snapshot.users) this.users.set(user.id, user);
    for (const extension of snapshot.extensions) this.extensions.set(extension.id, extension);
    for (const account of snapshot.webrtcAccounts) this.webrtc.set(account.userId, account);
    this.sounds = new Map(snapshot.soundFiles.map((s) => [s.id, s]));
    this.flows = new Map(snapshot.callFlows.map((f) => [f.id, f]));
    this.ivrs = new Map(snapshot.ivrs.map((i) => [i.id, i]));
    this.queues = new Map(snapshot.queues.map((q) => [q.id, q]));
    this.identities = new Map(snapshot.callerIdentities.map((c) => [c.id, c]));
    this.phoneNumbers = new Map(snapshot.phoneNumbers.map((n) => [n.id, n]));
  }

  private index() {
    if (this.indexes) return this.indexes;
    const { snapshot } = this;
    this.indexes = {
      devicesByExtension: groupBy(snapshot.sipDevices, (d) => (d.roamingExtensionId ? d.roamingExtensionId : d.extensionId)),
      devicesByUser: groupBy(snapshot.sipDevices, (d) => (d.roamingUserId ? d.roamingUserId : d.userId)),
      extensionsByUser: groupBy(snapshot.extensions, (e) => e.userId),
      twinningsByUser: groupBy(snapshot.twinnings, (t) => t.userId),
      dndsByUser: groupBy(snapshot.dnds, (d) => d.userId),
      forwardsByUser: groupBy(snapshot.forwards, (f) => f.userId),
      identitiesByUser: groupBy(snapshot.callerIdentities, (c) => c.userId),
    };
    return this.indexes;
  }

  /** The user's extensions, in the snapshot's order. */
  extensionsOf(userId: string): readonly SnapshotExtension[] {
    return this.index().extensionsByUser.get(userId) ?? NONE;
  }

  /** The user's DND rules, in the snapshot's order. */
  dndsOf(userId: string): ConfigurationSnapshot['dnds'] {
    return this.index().dndsByUser.get(userId) ?? [];
  }

  /** The user's forwards, in the snapshot's order. */
  forwardsOf(userId: string): ConfigurationSnapshot['forwards'] {
    return this.index().forwardsByUser.get(userId) ?? [];
  }

  /** `<prefix>-<kind>-<32 hex>`; null when the id is not a UUID (then there is nothing to name). */
  name(kind: string, id: string | null | undefined): string | null {
    const hex = compactId(id);
    return hex ? `${this.prefix}-${kind}-${hex}` : null;
  }

  /** The tenant's main dialplan context (its devices call from it) and its voicemail context. */
  get context(): string {
    return this.prefix;
  }

  /** A music file's directory under Asterisk's data directory (its MOH class plays what it holds). */
  musicDirectory(hex: string): string {
    return `moh/pbxapi/${this.prefix}/${hex}`;
  }

  /** An announcement as Playback names it: `<astdatadir>/sounds/pbxapi/<prefix>/<32 hex>.wav`. */
  sound(id: string | null | undefined): string | null {
    const hex = id && this.sounds.has(id) ? compactId(id) : null;
    return hex ? `pbxapi/${this.prefix}/${hex}` : null;
  }

  seal(sealed: string, kind: SealedSecret['kind']): string {
    const token = secretToken(sealed);
    this.secrets.push({ token, sealed, kind });
    return token;
  }

  userName(user: SnapshotUser | undefined): string {
    return user ? displayName(`${user.firstName} ${user.lastName}`) : '';
  }

  /** A live, active user: one that can take calls. */
  activeUser(id: string | null | undefined): SnapshotUser | null {
    const user = id ? this.users.get(id) : undefined;
    return user && user.active ? user : null;
  }

  /** Rules of a user that stop routed calls (queues, flows): external DND for everything. */
  routedDnd(userId: string): boolean {
    return this.dndsOf(userId).some((d) => d.type === 'external' && !d.callerIdentityId && !d.extensionId);
  }

  /** A device's endpoint name: its SIP user name (platform-unique, `[A-Za-z0-9._-]`). */
  endpoint(device: SnapshotSipDevice): string | null {
    return identifier(device.username);
  }

  /** The devices an extension rings: its home devices not roamed elsewhere, and those roamed onto it. */
  extensionDevices(extensionId: string): string[] {
    return this.dialDevices(this.index().devicesByExtension.get(extensionId) ?? NONE);
  }

  /** The devices a user rings: theirs (or roamed to them), not those roamed to someone else. */
  userDevices(userId: string): string[] {
    return this.dialDevices(this.index().devicesByUser.get(userId) ?? NONE);
  }

  private dialDevices(devices: readonly SnapshotSipDevice[]): string[] {
    return sortBy(devices, (d) => d.username)
      .filter((d) => this.deviceUsable(d))
      .map((d) => `PJSIP/${this.endpoint(d)}`);
  }

  /** Whether a device gets an endpoint: a valid user name, and an owner (if any) who is active. */
  deviceUsable(device: SnapshotSipDevice): boolean {
    if (!this.endpoint(device)) return false;
    const owner = device.roamingUserId ?? device.userId;
    return owner === null || this.activeUser(owner) !== null;
  }

  /** Everything that rings for a user: devices, the WebRTC client, twinnings (through their own leg). */
  userTargets(userId: string, extensionId?: string): string[] {
    if (!this.activeUser(userId)) return [];
    const devices = extensionId ? this.extensionDevices(extensionId) : this.userDevices(userId);
    const webrtc = this.webrtc.get(userId);
    const webrtcName = webrtc ? identifier(webrtc.username) : null;
    const twinnings = this.twinningsOf(userId).map((t) => `Local/${compactId(t.id)}@${this.prefix}-twinning`);
    return unique([...devices, ...(webrtcName ? [`PJSIP/${webrtcName}`] : []), ...twinnings]);
  }

  /** An extension's targets: its devices, and its user's WebRTC client and twinnings. */
  extensionTargets(extension: SnapshotExtension): string[] {
    if (extension.userId) return this.activeUser(extension.userId) ? this.userTargets(extension.userId, extension.id) : [];
    return this.extensionDevices(extension.id);
  }

  /** Enabled mobile twinnings with something to dial (teams twinnings ring through their integration). */
  twinningsOf(userId: string): SnapshotTwinning[] {
    return sortBy(
      (this.index().twinningsByUser.get(userId) ?? NONE).filter((t) => t.type === 'mobile' && compactId(t.id) && this.twinningDial(t).length > 0),
      (t) => t.id,
    );
  }

  /**
   * What a twinning leg dials, in order: the FMC strategy picks VoIP (the user's WebRTC/app
   * endpoint) and/or GSM (the mobile number); a backup number follows when FMC is on.
   */
  twinningDial(twinning: SnapshotTwinning): string[] {
    const gsm = e164(twinning.phoneNumber);
    const webrtc = this.webrtc.get(twinning.userId);
    const voip = webrtc ? identifier(webrtc.username) : null;
    const legs: string[] = [];
    const strategy = twinning.fmcEnabled ? twinning.dialStrategy : 'gsm_only';
    if (strategy !== 'gsm_only' && voip) legs.push(`PJSIP/${voip}`);
    if (strategy !== 'voip_only' && gsm) legs.push(`external:${gsm}`);
    const backup = twinning.fmcEnabled ? e164(twinning.backupPhoneNumber) : null;
    if (backup && legs.length) legs.push(`external:${backup}`);
    return legs;
  }

  /** The user's mailbox: the lowest-numbered of their extensions with voicemail on. */
  mailboxOf(userId: string): string | null {
    let mailbox = this.mailboxes.get(userId);
    if (mailbox !== undefined) return mailbox;
    const own = sortBy(
      this.extensionsOf(userId).filter((e) => e.voicemailEnabled && extensionNumber(e.number)),
      (e) => e.number.padStart(16, '0'),
    );
    mailbox = own.length ? `${own[0].number}@${this.context}` : null;
    this.mailboxes.set(userId, mailbox);
    return mailbox;
  }

  /** The identity a user's outgoing calls present: their default, else the PBX's default. */
  identityOf(userId: string | null): { number: string; name: string } | null {
    const valid = (list: SnapshotCallerIdentity[]) => sortBy(list, (c) => c.name).find((c) => e164(c.externalCallerNumber));
    const byUser = this.index().identitiesByUser;
    const own = userId ? valid((byUser.get(userId) ?? NONE).filter((c) => c.isDefault)) : undefined;
    const shared = valid((byUser.get(null) ?? NONE).filter((c) => c.isDefault));
    const identity = own ?? shared;
    return identity ? { number: e164(identity.externalCallerNumber)!, name: displayName(identity.name) } : null;
  }
}

export function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}
