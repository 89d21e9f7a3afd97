import type { AppContext } from '../../../../platform/context.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import {
  ABSENT_STATUSES,
  devicePresenceAudience,
  deviceRegistered,
  devicesByUsername,
  deviceUnregistered,
  PRESENT_STATUSES,
} from '../../../directory/index.js';
import type { AmiMessage } from './protocol.js';

type Presence = 'registered' | 'unregistered';

const PRESENT = new Set<string>(PRESENT_STATUSES);
const ABSENT = new Set<string>(ABSENT_STATUSES);

/**
 * Which AORs the PBX has a reachable contact of, as its ContactStatus events tell (one listener's
 * memory, per PBX). Asterisk reports each contact: a registration (`NonQualified`), then the check
 * that it answers (`Reachable`) or not (`Unreachable`), its removal (`Removed`); a device moving to
 * a new contact may report the new one before the old one's removal. Presence is whether any
 * contact is reachable, and only its changes are events: a check confirming a registration, or
 * a refresh, is none. `Unknown` (no check possible) changes nothing.
 */
export class ContactPresence {
  private readonly reachable = new Map<string, Set<string>>();

  /** Applies one contact's status; answers the AOR's presence when it changed, else null. */
  apply(aor: string, uri: string, status: string): Presence | null {
    if (!PRESENT.has(status) && !ABSENT.has(status)) return null;
    const known = this.reachable.get(aor);
    const before = known === undefined ? null : known.size > 0;
    const contacts = known ?? new Set<string>();
    if (PRESENT.has(status)) contacts.add(uri);
    else contacts.delete(uri);
    this.reachable.set(aor, contacts);
    const now = contacts.size > 0;
    if (before === now) return null;
    return now ? 'registered' : 'unregistered';
  }
}

/**
 * A ContactStatus event: when it changes the presence of one of the tenant's SIP devices (its AOR
 * is the device's SIP user name, as the compiler names it), `device.registered` or
 * `device.unregistered`. An AOR that is no device of the tenant's (a WebRTC client, another
 * tenant's device on a shared host) is left alone. Without `presence` (no listener's memory) each
 * event stands for itself.
 */
export async function applyContactStatus(ctx: AppContext, tenant: Tenant, event: AmiMessage, presence?: ContactPresence): Promise<void> {
  const aor = (event.get('AOR') ?? '').trim();
  const status = (event.get('ContactStatus') ?? '').trim();
  if (!aor) return;
  const change = presence
    ? presence.apply(aor, event.get('URI') ?? '', status)
    : PRESENT.has(status)
      ? 'registered'
      : ABSENT.has(status)
        ? 'unregistered'
        : null;
  if (!change) return;
  const device = (await devicesByUsername(ctx.db, tenant, [aor])).get(aor);
  if (!device || device.deleted) return;
  const usec = Number(event.get('RoundtripUsec'));
  await ctx.events.publish(ctx.db, {
    pbxId: tenant.pbxId,
    kind: change === 'registered' ? deviceRegistered : deviceUnregistered,
    subject: { type: 'sip_device', id: device.id },
    audience: devicePresenceAudience,
    data: {
      name: device.deviceName,
      user_id: device.userId,
      extension_id: device.extensionId,
      pbx_status: status,
      roundtrip_ms: status === 'Reachable' && usec > 0 ? usec / 1000 : null,
    },
  });
}
