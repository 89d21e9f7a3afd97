import type { Kysely } from 'kysely';
import type { Static } from '@sinclair/typebox';
import type { DB } from '../../../db/schema.js';
import { NotFound } from '../../../platform/errors.js';
import type { AppContext } from '../../../platform/context.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { Principal } from '../../../platform/auth/principal.js';
import { flag, targetUser, type UserRow } from '../shared/access.js';
import { guardUnique } from '../../../platform/unique.js';
import { EVERY_PBX, findLiveUserByEmail } from '../users/users.queries.js';
import type { SaveWebrtcBody, WebrtcConfiguration, WebrtcSummary } from './webrtc.schemas.js';
import { deleteWebrtc, findWebrtc, saveWebrtc, webrtcCallerIdentities } from './webrtc.queries.js';

const NOT_FOUND = 'WebRTC configuration not found.';
export type WebrtcSummaryView = Static<typeof WebrtcSummary>;

function oneOf<T extends string>(value: string | null, allowed: readonly T[], fallback: T): T {
  return value && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

/** The configuration without its secrets, or null when the user has no WebRTC account. */
export async function webrtcSummary(db: Kysely<DB>, tenant: Tenant, user: UserRow): Promise<WebrtcSummaryView | null> {
  const row = await findWebrtc(db, tenant, user.id);
  if (!row) return null;
  return {
    hostname: row.hostname,
    port: row.port,
    username: row.username,
    caller_identities: await webrtcCallerIdentities(db, tenant, user.id),
    allow_anonymous_calls: flag(user.allow_anonymous_calls),
    allow_call_forwarding: flag(user.allow_call_forwarding),
    allow_change_twinning_dest: flag(user.allow_change_twinning_dest),
    allow_dnd: flag(user.allow_dnd),
    allow_status_changer: flag(user.allow_status_changer),
    call_information_visibility: oneOf(user.call_information_visibility, ['own_calls', 'own_group_only', 'none'] as const, 'own_calls'),
    call_pickpup_restrictions: row.call_pickup_restrictions,
    voicemail: user.voicemail_type !== null,
    voicemail_destination: oneOf(user.voicemail_destination, ['email_only', 'email_and_phone'] as const, 'email_only'),
    voicemail_type: oneOf(user.voicemail_type, ['enabled', 'external', 'internal'] as const, 'enabled'),
  };
}

/** WebRTC softphone accounts: credentials sealed at rest, flags taken from the user. */
export class WebrtcService {
  constructor(private readonly ctx: AppContext) {}

  /** For internal services: the full configuration of an active user, found by e-mail in the key's PBX (every PBX for an operator-wide key). */
  async byEmail(principal: Principal, email: string): Promise<Static<typeof WebrtcConfiguration>> {
    // A key bound to a PBX finds that PBX's users only; an operator-wide key (its use logged) every PBX's.
    const scope = principal.pbxId === null ? EVERY_PBX : { pbxId: principal.pbxId };
    const user = await findLiveUserByEmail(this.ctx.db, scope, email);
    if (!user || user.status !== 'active') throw new NotFound(NOT_FOUND);
    const tenant = { pbxId: user.pbx_id };
    const row = await findWebrtc(this.ctx.db, tenant, user.id);
    const summary = await webrtcSummary(this.ctx.db, tenant, user);
    if (!row || !summary) throw new NotFound(NOT_FOUND);
    return {
      ...summary,
      password: this.ctx.secrets.open(row.password_sealed),
      voicemail_pin: row.voicemail_pin_sealed ? this.ctx.secrets.open(row.voicemail_pin_sealed) : '',
    };
  }

  async save(tenant: Tenant, user: UserRow, body: Static<typeof SaveWebrtcBody>): Promise<WebrtcSummaryView> {
    const existing = await findWebrtc(this.ctx.db, tenant, user.id);
    const now = this.ctx.clock.now().toISOString();
    const pin =
      body.voicemail_pin === undefined ? (existing?.voicemail_pin_sealed ?? null) : body.voicemail_pin ? this.ctx.secrets.seal(body.voicemail_pin) : null;
    await guardUnique([{ match: 'username', field: 'username', message: 'The username has already been taken.' }], () =>
      saveWebrtc(this.ctx.db, {
        user_id: user.id,
        pbx_id: tenant.pbxId,
        hostname: body.hostname,
        port: body.port,
        username: body.username ?? existing?.username ?? `webrtc_${user.id.slice(0, 8)}`,
        password_sealed: this.ctx.secrets.seal(body.password),
        voicemail_pin_sealed: pin,
        call_pickup_restrictions: body.call_pickpup_restrictions ?? existing?.call_pickup_restrictions ?? 'yes',
        created_at: existing?.created_at ?? now,
        updated_at: now,
      }),
    );
    return (await webrtcSummary(this.ctx.db, tenant, user))!;
  }

  /**
   * The account of a user of the PBX as the PUT answers it, without its secrets; a user without one
   * is 404. `secretsVersion` changes whenever a PUT seals a password or PIN (a fresh seal each time),
   * which the summary does not show: the read's ETag takes it in, so If-Match sees a new password.
   */
  async getFor(tenant: Tenant, principal: Principal, userId: string): Promise<{ summary: WebrtcSummaryView; secretsVersion: string }> {
    const user = await targetUser(this.ctx.db, tenant, principal, userId);
    const [summary, row] = await Promise.all([webrtcSummary(this.ctx.db, tenant, user), findWebrtc(this.ctx.db, tenant, user.id)]);
    if (!summary || !row) throw new NotFound(NOT_FOUND);
    return { summary, secretsVersion: `${row.password_sealed}:${row.voicemail_pin_sealed ?? ''}` };
  }

  /** Creates or replaces the account of a user of the PBX (404 for another PBX's or a deleted user). */
  async saveFor(tenant: Tenant, principal: Principal, userId: string, body: Static<typeof SaveWebrtcBody>): Promise<WebrtcSummaryView> {
    return this.save(tenant, await targetUser(this.ctx.db, tenant, principal, userId), body);
  }

  async deleteFor(tenant: Tenant, principal: Principal, userId: string): Promise<void> {
    return this.delete(tenant, await targetUser(this.ctx.db, tenant, principal, userId));
  }

  async delete(tenant: Tenant, user: UserRow): Promise<void> {
    if ((await deleteWebrtc(this.ctx.db, tenant, user.id)) === 0) throw new NotFound(NOT_FOUND);
  }
}
