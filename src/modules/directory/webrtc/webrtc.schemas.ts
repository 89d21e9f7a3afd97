import { Type } from '@sinclair/typebox';
import { Nullable, PbxSecret, StringEnum } from '../../../http/schema.js';

export const PICKUP_RESTRICTIONS = ['yes', 'own_groups_only', 'no'] as const;

const common = {
  hostname: Type.String(),
  port: Type.Integer(),
  username: Type.String(),
  caller_identities: Type.Array(
    Type.Object({
      id: Type.Integer(),
      root_phone_nuber_id: Type.Integer({ description: 'Spelled as the interface spells it.' }),
      external_caller_extension: Type.String(),
      external_caller_number: Type.String(),
    }),
  ),
  allow_anonymous_calls: Type.Boolean(),
  allow_call_forwarding: Type.Boolean(),
  allow_change_twinning_dest: Type.Boolean(),
  allow_dnd: Type.Boolean(),
  allow_status_changer: Type.Boolean(),
  call_information_visibility: StringEnum(['own_calls', 'own_group_only', 'none']),
  call_pickpup_restrictions: StringEnum(PICKUP_RESTRICTIONS),
  voicemail: Type.Boolean(),
  voicemail_destination: StringEnum(['email_only', 'email_and_phone']),
  voicemail_type: StringEnum(['enabled', 'external', 'internal']),
};

/** The full configuration for the WebRTC client, secrets included (internal API key only). */
export const WebrtcConfiguration = Type.Object(
  {
    ...common,
    password: Type.String({ description: 'A secret: never echoed elsewhere, never logged.' }),
    voicemail_pin: Type.String({ description: 'A secret.' }),
  },
  {
    $id: 'WebrtcConfiguration',
    examples: [
      {
        hostname: 'webrtc.pbx.example',
        port: 8089,
        username: 'webrtc_cc54d4ae',
        caller_identities: [
          { id: 1, root_phone_nuber_id: 1, external_caller_extension: '', external_caller_number: '+35227123400' },
          { id: 2, root_phone_nuber_id: 1, external_caller_extension: '202', external_caller_number: '+35227123400' },
        ],
        allow_anonymous_calls: false,
        allow_call_forwarding: true,
        allow_change_twinning_dest: true,
        allow_dnd: true,
        allow_status_changer: true,
        call_information_visibility: 'own_group_only',
        call_pickpup_restrictions: 'own_groups_only',
        voicemail: true,
        voicemail_destination: 'email_only',
        voicemail_type: 'enabled',
        password: 'jyAEIoJnBWBa9x0yoI-0Vk_r',
        voicemail_pin: '7458',
      },
    ],
  },
);

/** The same without its secrets, as users and administrators see it (`/me`, PUT answer). */
export const WebrtcSummary = Type.Object(common, {
  $id: 'WebrtcSummary',
  examples: [
    {
      hostname: 'webrtc.pbx.example',
      port: 8089,
      username: 'webrtc_cc54d4ae',
      caller_identities: [
        { id: 1, root_phone_nuber_id: 1, external_caller_extension: '', external_caller_number: '+35227123400' },
        { id: 2, root_phone_nuber_id: 1, external_caller_extension: '202', external_caller_number: '+35227123400' },
      ],
      allow_anonymous_calls: false,
      allow_call_forwarding: true,
      allow_change_twinning_dest: true,
      allow_dnd: true,
      allow_status_changer: true,
      call_information_visibility: 'own_group_only',
      call_pickpup_restrictions: 'own_groups_only',
      voicemail: true,
      voicemail_destination: 'email_only',
      voicemail_type: 'enabled',
    },
  ],
});

export const SaveWebrtcBody = Type.Object(
  {
    hostname: Type.String({ minLength: 1, maxLength: 255, format: 'hostname' }),
    port: Type.Integer({ minimum: 1, maximum: 65535 }),
    username: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9._@-]{3,64}$',
        description: 'Kept when omitted; a new account gets `webrtc_` and the first 8 characters of the user id.',
      }),
    ),
    password: PbxSecret({ minLength: 8, maxLength: 128 }),
    voicemail_pin: Type.Optional(Nullable(Type.String({ pattern: '^[0-9]{4,12}$' }))),
    call_pickpup_restrictions: Type.Optional(StringEnum(PICKUP_RESTRICTIONS)),
  },
  {
    additionalProperties: false,
    examples: [
      {
        hostname: 'webrtc.pbx.example.lu',
        port: 8089,
        username: 'claire.schmit',
        password: 'Wb7!kQ2m-Remich9',
        voicemail_pin: '4711',
        call_pickpup_restrictions: 'own_groups_only',
      },
    ],
  },
);

export const EmailParams = Type.Object({ email: Type.String({ format: 'email', maxLength: 255 }) });
