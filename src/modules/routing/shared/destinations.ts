import { Type, type Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { Nullable, PbxText, StringEnum, Uuid } from '../../../http/schema.js';
import { ValidationFailed } from '../../../platform/errors.js';
import { existsInPbx } from '../../../platform/references.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { requireE164 } from '../../directory/index.js';

/** Where a call can be sent when a resource is done with it (a queue's overflow). */
export const DESTINATION_TYPES = ['hangup', 'user', 'extension', 'voicemail', 'queue', 'ivr', 'call_flow', 'external'] as const;
export type DestinationType = (typeof DESTINATION_TYPES)[number];

/** The table holding each destination type's target (voicemail is a user's mailbox). */
export const DESTINATION_TABLES: Record<Exclude<DestinationType, 'hangup' | 'external'>, keyof DB> = {
  user: 'users',
  extension: 'extensions',
  voicemail: 'users',
  queue: 'queues',
  ivr: 'ivrs',
  call_flow: 'call_flows',
};

export const Destination = Type.Object(
  {
    type: StringEnum(DESTINATION_TYPES, {
      description: 'hangup; user (rings the user), extension, voicemail (the user’s mailbox), queue, ivr, call_flow; external (a number outside the PBX).',
    }),
    id: Type.Optional(Nullable(Uuid({ description: 'The user, extension, queue, IVR or call flow; empty for hangup and external.' }))),
    number: Type.Optional(Nullable(PbxText({ minLength: 1, maxLength: 24, description: 'For external: any dialable form, stored in E.164.' }))),
  },
  { additionalProperties: false },
);
export type DestinationInput = Static<typeof Destination>;
export interface ResolvedDestination {
  type: DestinationType;
  id: string | null;
  number: string | null;
}

/**
 * A destination checked against the tenant's rows: the target must exist, be live and be of the
 * PBX; a number must be a valid phone number. Errors name `field.id` or `field.number`.
 */
export async function checkDestination(db: Kysely<DB>, tenant: Tenant, country: string, input: DestinationInput, field: string): Promise<ResolvedDestination> {
  if (input.type === 'hangup') {
    if (input.id || input.number) throw ValidationFailed.field(field, 'A hangup destination takes neither an id nor a number.');
    return { type: 'hangup', id: null, number: null };
  }
  if (input.type === 'external') {
    if (input.id) throw ValidationFailed.field(`${field}.id`, 'An external destination takes a number, not an id.');
    if (!input.number) throw ValidationFailed.field(`${field}.number`, 'The number field is required for an external destination.');
    return { type: 'external', id: null, number: requireE164(input.number, country, `${field}.number`) };
  }
  if (input.number) throw ValidationFailed.field(`${field}.number`, `A ${input.type} destination takes an id, not a number.`);
  if (!input.id) throw ValidationFailed.field(`${field}.id`, `The id field is required for a ${input.type.replace('_', ' ')} destination.`);
  if (!(await existsInPbx(db, tenant, DESTINATION_TABLES[input.type], input.id)))
    throw ValidationFailed.field(`${field}.id`, `The selected ${input.type.replace('_', ' ')} does not exist.`);
  return { type: input.type, id: input.id, number: null };
}
