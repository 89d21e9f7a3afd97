import { Type, type Static } from '@sinclair/typebox';
import { MAX_SECRET_OVERLAP_SECONDS } from '../../../config.js';
import { ListQuery } from '../../../http/list-query.js';
import { DataEnvelope, DateTime, Nullable, StringEnum, Uuid } from '../../../http/schema.js';

const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export const WebhookDelivery = Type.Object(
  {
    id: Type.String({ description: 'The webhook-id header of the message.' }),
    event: Type.String({ examples: ['contact_import.completed'] }),
    subject_type: Type.String(),
    subject_id: Uuid(),
    url: Type.String(),
    status: StringEnum(DELIVERY_STATUSES),
    attempts: Type.Integer(),
    response_status: Nullable(Type.Integer()),
    last_error: Nullable(Type.String()),
    payload: Type.Unknown({ description: 'The JSON body that was signed and sent.' }),
    created_at: DateTime(),
    updated_at: DateTime(),
    delivered_at: Nullable(DateTime()),
  },
  {
    $id: 'WebhookDelivery',
    examples: [
      {
        id: 'msg_2f9c1a7e4b8d4c0e9a6b3f5d7e1c2a4b',
        event: 'contact_import.completed',
        subject_type: 'contact_import',
        subject_id: 'cb4adce6-120d-48cf-b066-f5f506290a23',
        url: 'https://crm.acme.example/hooks/pbx',
        status: 'delivered',
        attempts: 1,
        response_status: 200,
        last_error: null,
        payload: {
          type: 'contact_import.completed',
          timestamp: '2026-11-23T08:30:00.000Z',
          data: { id: 'cb4adce6-120d-48cf-b066-f5f506290a23', status: 'completed_with_errors', records_count: 1, errors_count: 1 },
        },
        created_at: '2026-11-23T08:30:00.000Z',
        updated_at: '2026-11-23T08:30:00.000Z',
        delivered_at: '2026-11-23T08:30:00.000Z',
      },
    ],
  },
);
export type WebhookDeliveryView = Static<typeof WebhookDelivery>;

/** What the delivery log sorts by (`-field` descending): these columns and no other. */
export const DELIVERY_SORTS = ['created_at', 'updated_at', 'delivered_at', 'event', 'status', 'attempts'] as const;

export const DeliveryListQuery = ListQuery({
  search: false,
  sort: DELIVERY_SORTS,
  filters: {
    event: Type.String({ maxLength: 64 }),
    status: StringEnum(DELIVERY_STATUSES),
    subject_id: Uuid(),
  },
});

export const DeliveryParams = Type.Object({ delivery: Type.String({ pattern: '^msg_[0-9a-f]{32}$' }) });

const SigningSecret = Type.Object({
  secret: Type.String({
    description: 'The current Standard Webhooks secret (`whsec_` + base64 key): verify `webhook-signature` with it.',
    examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
  }),
  rotated_at: Nullable(DateTime({ description: 'When this secret replaced the previous one; null while the PBX has its first secret.' })),
  previous_secret_expires_at: Nullable(
    DateTime({
      description:
        'Until then deliveries are signed with this secret and the previous one (two signatures in `webhook-signature`); null when no previous secret signs any more.',
    }),
  ),
  overlap_seconds: Type.Integer({
    description:
      "The overlap window: how long a replaced secret keeps signing. On a rotation, the window it applied; otherwise the server's default, which a rotation applies unless told otherwise.",
    examples: [86400],
  }),
});
export type SigningSecretView = Static<typeof SigningSecret>;

export const SigningSecretResponse = DataEnvelope(SigningSecret);

export const RotateSigningSecretBody = Type.Object(
  {
    overlap_seconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_SECRET_OVERLAP_SECONDS,
        description:
          "How long the replaced secret keeps signing beside the new one (default: the server's window, 24 hours unless configured). 0 stops it at once, for a leaked secret.",
      }),
    ),
  },
  { additionalProperties: false, examples: [{ overlap_seconds: 3600 }] },
);
