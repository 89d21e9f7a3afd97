import { TrashedFilterParam } from '../../../http/soft-delete.js';
import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, PbxText, StringEnum, Uuid } from '../../../http/schema.js';
import { ListQuery } from '../../../http/list-query.js';

export const PHONE_NUMBER_SORTS = ['number', 'label', 'created_at'] as const;
/** What an inbound call to the number reaches: nothing, a user, an extension, or routing's call flow, IVR or queue. */
export const DESTINATION_TYPES = ['none', 'user', 'extension', 'call_flow', 'ivr', 'queue'] as const;

export const PhoneNumber = Type.Object(
  {
    id: Uuid(),
    pbx_id: Uuid(),
    voip_id: Type.Integer({ description: 'Numeric id on the PBX engine (root_phone_nuber_id of caller identities).' }),
    number: Type.String({ description: 'E.164, unique on the platform.', examples: ['+35227123456'] }),
    label: Nullable(Type.String()),
    destination_type: StringEnum(DESTINATION_TYPES),
    destination_id: Nullable(Uuid()),
    created_at: DateTime(),
    updated_at: DateTime(),
    deleted_at: Nullable(DateTime()),
  },
  {
    $id: 'PhoneNumber',
    examples: [
      {
        id: '43d765c7-c692-4b64-b17f-0021be4965c7',
        pbx_id: '5b434841-6826-4eb7-9e1e-52f33261ad31',
        voip_id: 1,
        number: '+35227123400',
        label: 'Main line',
        destination_type: 'call_flow',
        destination_id: '73f8cb2c-51b4-4e31-b6bb-4296620d00d4',
        created_at: '2026-11-02T08:30:00.000Z',
        updated_at: '2026-11-02T08:30:00.000Z',
        deleted_at: null,
      },
    ],
  },
);

export const CreatePhoneNumberBody = Type.Object(
  {
    number: PbxText({ minLength: 1, maxLength: 24, description: 'Any dialable form; stored in E.164 (the PBX country is the default region).' }),
    label: Type.Optional(Nullable(PbxText({ maxLength: 255 }))),
    destination_type: Type.Optional(StringEnum(DESTINATION_TYPES)),
    destination_id: Type.Optional(Nullable(Uuid({ description: 'Required unless destination_type is none.' }))),
  },
  {
    additionalProperties: false,
    examples: [
      { number: '+352 27 12 34 56', label: 'Main line Luxembourg', destination_type: 'call_flow', destination_id: 'c4a7e2d9-5b13-4f6e-8a90-2d3c4b5e6f71' },
    ],
  },
);
export const UpdatePhoneNumberBody = Type.Partial(CreatePhoneNumberBody, { additionalProperties: false });

export const PhoneNumberParams = Type.Object({ phoneNumber: Uuid() });
export const PhoneNumberListQuery = ListQuery({
  sort: PHONE_NUMBER_SORTS,
  filters: { destination_type: StringEnum(DESTINATION_TYPES), trashed: TrashedFilterParam('phone numbers') },
});
