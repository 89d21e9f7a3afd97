import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, PbxText, StringEnum, Uuid } from '../../../http/schema.js';
import { ListQuery } from '../../../http/list-query.js';

export const TWINNING_STATUSES = ['enabled', 'disabled'] as const;
export const TWINNING_TYPES = ['mobile', 'teams'] as const;
export const DIAL_STRATEGIES = ['gsm_only', 'voip_only', 'voip_and_gsm_fallback'] as const;
export const SYNC_SOURCES = ['manual', 'provision', 'legacy_import'] as const;
export const TWINNING_SORTS = ['created_at', 'delay', 'phone_number'] as const;

export const Twinning = Type.Object(
  {
    id: Uuid(),
    user_id: Uuid(),
    status: StringEnum(TWINNING_STATUSES, { description: 'Only an enabled twinning rings.' }),
    phone_number: Nullable(Type.String({ description: 'E.164; null for a teams endpoint or when unconfigured.' })),
    delay: Type.Integer({ minimum: 0, format: 'int32', description: 'Seconds after call start before this leg rings; 0 = immediately.' }),
    sync_source: StringEnum(SYNC_SOURCES, { description: 'Origin of the record; server-managed.' }),
    type: StringEnum(TWINNING_TYPES),
    dial_strategy: StringEnum(DIAL_STRATEGIES, { description: 'Meaningful only for mobile twinnings using FMC.' }),
    fmc_enabled: Type.Boolean({ description: 'Whether fixed-mobile convergence is on; setting backup_phone_number turns it on.' }),
    backup_phone_number: Nullable(Type.String({ description: 'E.164; dialed when the primary FMC leg cannot be reached.' })),
    created_at: Nullable(DateTime()),
    updated_at: Nullable(DateTime()),
  },
  {
    $id: 'Twinning',
    examples: [
      {
        id: 'b80a7fe3-cc8b-4bf5-91fa-a7bf643b5c12',
        user_id: 'cc54d4ae-8057-438f-8cd8-f22406bd64cd',
        status: 'enabled',
        phone_number: '+352691123456',
        delay: 5,
        sync_source: 'manual',
        type: 'mobile',
        dial_strategy: 'gsm_only',
        fmc_enabled: false,
        backup_phone_number: null,
        created_at: '2026-11-02T08:30:00.000Z',
        updated_at: '2026-11-02T08:30:00.000Z',
      },
    ],
  },
);

const fields = {
  status: StringEnum(TWINNING_STATUSES),
  phone_number: PbxText({
    minLength: 0,
    maxLength: 24,
    description:
      'Any dialable form, stored in E.164 (PBX country as default region); empty clears it; a value that is no phone number is 422. Not kept for a teams twinning (reached through its integration).',
  }),
  delay: Type.Integer({ minimum: 0, maximum: 2147483647 }),
  type: StringEnum(TWINNING_TYPES),
  dial_strategy: StringEnum(DIAL_STRATEGIES, { description: 'Stored as sent on any twinning; the PBX applies it to mobile twinnings with FMC only.' }),
  fmc_enabled: Type.Boolean({
    description: 'false together with a backup_phone_number is 422: the backup number is what turns FMC on. Not kept for a teams twinning.',
  }),
  backup_phone_number: Nullable(PbxText({ minLength: 0, maxLength: 24, description: 'Setting one turns FMC on. Not kept for a teams twinning.' })),
};

/**
 * PUT and PATCH share this body and its validation: every field optional, only supplied fields
 * change; `user_id` and `sync_source` are server-managed and refused.
 */
export const UpdateTwinningBody = Type.Object(
  {
    status: Type.Optional(fields.status),
    phone_number: Type.Optional(fields.phone_number),
    delay: Type.Optional(fields.delay),
    type: Type.Optional(fields.type),
    dial_strategy: Type.Optional(fields.dial_strategy),
    fmc_enabled: Type.Optional(fields.fmc_enabled),
    backup_phone_number: Type.Optional(fields.backup_phone_number),
  },
  { additionalProperties: false, examples: [{ status: 'disabled', delay: 10 }] },
);

export const CreateTwinningBody = Type.Object(
  {
    status: Type.Optional(fields.status),
    phone_number: Type.Optional(fields.phone_number),
    delay: Type.Optional(fields.delay),
    type: Type.Optional(fields.type),
    dial_strategy: Type.Optional(fields.dial_strategy),
    fmc_enabled: Type.Optional(fields.fmc_enabled),
    backup_phone_number: Type.Optional(fields.backup_phone_number),
  },
  {
    additionalProperties: false,
    examples: [
      {
        status: 'enabled',
        phone_number: '+352621123456',
        delay: 5,
        type: 'mobile',
        dial_strategy: 'voip_and_gsm_fallback',
        backup_phone_number: '+352691654321',
      },
    ],
  },
);

export const TwinningParams = Type.Object({ user: Uuid(), twinning: Uuid() });
export const TwinningListQuery = ListQuery({
  sort: TWINNING_SORTS,
  filters: { status: StringEnum(TWINNING_STATUSES), type: StringEnum(TWINNING_TYPES), sync_source: StringEnum(SYNC_SOURCES) },
});
