import { Type, type Static } from '@sinclair/typebox';
import { ListQuery } from '../../../../http/list-query.js';
import { DateTime, Nullable, PbxIdParam, StringEnum, Uuid } from '../../../../http/schema.js';
import { ABSENCE_TYPES } from '../absence-requests/absence-requests.schemas.js';
import { TrashedFilter } from '../../shared/index.js';

const ledgerType = StringEnum(ABSENCE_TYPES, {
  description: 'The ledger type it books as: legal (paid leave), home_office, illness, special (special leave) or overtime_balance.',
});

/** A named kind of absence of the tenant ("Annual leave"), mapped to a ledger type. */
export const AbsenceType = Type.Object(
  {
    id: Uuid(),
    pbx_id: Uuid({ description: 'The tenant (PBX) that owns it.' }),
    name: Type.String({ examples: ['Annual leave'] }),
    type: ledgerType,
    created_at: DateTime(),
    updated_at: DateTime(),
    deleted_at: Nullable(DateTime()),
  },
  {
    $id: 'AbsenceType',
    examples: [
      {
        id: '41ad6509-c811-41d8-9a8f-69166a1e787c',
        pbx_id: '5b434841-6826-4eb7-9e1e-52f33261ad31',
        name: 'Annual leave',
        type: 'legal',
        created_at: '2026-11-02T08:30:00.000Z',
        updated_at: '2026-11-02T08:30:00.000Z',
        deleted_at: null,
      },
    ],
  },
);
export type AbsenceTypeView = Static<typeof AbsenceType>;

const name = Type.String({ minLength: 1, maxLength: 64, description: 'Unique among the live absence types of the PBX.', examples: ['Annual leave'] });
export const CreateAbsenceTypeBody = Type.Object(
  { name, type: ledgerType },
  { additionalProperties: false, examples: [{ name: 'Congé extraordinaire', type: 'special' }] },
);
export const UpdateAbsenceTypeBody = Type.Object(
  { name: Type.Optional(name), type: Type.Optional(ledgerType) },
  { additionalProperties: false, examples: [{ name: 'Sonderurlaub' }] },
);
export type AbsenceTypeInput = Static<typeof UpdateAbsenceTypeBody>;

export const AbsenceTypeParams = Type.Object({ pbx_id: PbxIdParam, absence_type: Uuid({ description: 'The absence type id.' }) });
export const AbsenceTypeListQuery = ListQuery({
  sort: ['name', 'created_at'],
  filters: { type: ledgerType, trashed: TrashedFilter },
});
