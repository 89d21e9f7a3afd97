import { Type, type Static } from '@sinclair/typebox';
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
  { $id: 'WebhookDelivery' },
);
export type WebhookDeliveryView = Static<typeof WebhookDelivery>;

export const DeliveryListQuery = ListQuery({
  search: false,
  filters: {
    event: Type.String({ maxLength: 64 }),
    status: StringEnum(DELIVERY_STATUSES),
    subject_id: Uuid(),
  },
});

export const DeliveryParams = Type.Object({ delivery: Type.String({ pattern: '^msg_[0-9a-f]{32}$' }) });

export const SigningSecretResponse = DataEnvelope(Type.Object({ secret: Type.String({ examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'] }) }));
