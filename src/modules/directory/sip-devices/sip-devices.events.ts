import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum, Uuid } from '../../../http/schema.js';
import { defineEventKind, type Audience } from '../../../platform/events/index.js';

/**
 * A SIP device's presence: whether the PBX has a reachable registration of it. The PBX reports it
 * (the calls engine's AMI listener reads Asterisk's ContactStatus events); the directory owns the
 * device. Presence is the tenant's: every user, and the PBX key, read the extensions and the
 * device each rings on (`GET /extensions/{id}?include=sipDevice`).
 */
export const devicePresenceAudience: Audience = { scope: 'tenant' };

/** Asterisk's ContactStatus values that make a device present or absent (res_pjsip; `Created` from versions before 16). */
export const PRESENT_STATUSES = ['NonQualified', 'Created', 'Reachable'] as const;
export const ABSENT_STATUSES = ['Unreachable', 'Removed'] as const;

const presence = (statuses: readonly string[], example: string, description: string) =>
  Type.Object(
    {
      name: Type.String({ description: 'The device’s name.' }),
      user_id: Nullable(Uuid({ description: 'Its owner; null for a device of nobody.' })),
      extension_id: Nullable(Uuid({ description: 'Its home extension.' })),
      pbx_status: StringEnum(statuses, { description }),
      roundtrip_ms: Nullable(Type.Number({ minimum: 0, description: 'The round trip of the PBX’s last check (qualify), when it measured one.' })),
    },
    {
      examples: [
        {
          name: 'Front desk phone',
          user_id: 'cc54d4ae-8057-438f-8cd8-f22406bd64cd',
          extension_id: '05041bb3-8686-4a4e-b603-d0108b61b666',
          pbx_status: example,
          roundtrip_ms: example === 'Reachable' ? 12.4 : null,
        },
      ],
    },
  );

export const deviceRegistered = defineEventKind({
  kind: 'device.registered',
  subject: 'sip_device',
  description: 'A SIP device registered with the PBX and is reachable there (its first reachable contact).',
  data: presence(PRESENT_STATUSES, 'Reachable', 'What the PBX reported: `NonQualified` (registered, not checked yet) or `Reachable` (answered the check).'),
  pbxKey: true,
});

export const deviceUnregistered = defineEventKind({
  kind: 'device.unregistered',
  subject: 'sip_device',
  description: 'A SIP device is no longer reachable at the PBX: its registration was removed (or expired), or it stopped answering the PBX’s checks.',
  data: presence(ABSENT_STATUSES, 'Removed', 'What the PBX reported: `Removed` (the registration ended) or `Unreachable` (no answer to the check).'),
  pbxKey: true,
});
