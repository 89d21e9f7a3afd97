import { TrashedFilterParam } from '../../../http/soft-delete.js';
import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, PbxText, Uuid } from '../../../http/schema.js';
import { ListQuery } from '../../../http/list-query.js';

export const CALLER_IDENTITY_SORTS = ['name', 'external_caller_number', 'created_at'] as const;

export const CallerIdentity = Type.Object(
  {
    id: Uuid(),
    pbx_id: Uuid(),
    voip_id: Type.Integer({ description: 'Numeric id on the PBX engine (DND rules and WebRTC refer to it).' }),
    user_id: Nullable(Uuid({ description: 'The one user who may present it; null: every user of the PBX.' })),
    phone_number_id: Uuid({ description: 'Root phone number the identity presents from.' }),
    name: Type.String(),
    external_caller_number: Type.String({ description: 'E.164 number shown to the called party.' }),
    external_caller_extension: Type.String({ description: 'Direct-dial suffix appended to the root number; empty for none.' }),
    is_default: Type.Boolean(),
    created_at: DateTime(),
    updated_at: DateTime(),
    deleted_at: Nullable(DateTime()),
  },
  {
    $id: 'CallerIdentity',
    examples: [
      {
        id: '3b749d4e-1609-4f53-9ec7-580652f9890c',
        pbx_id: '5b434841-6826-4eb7-9e1e-52f33261ad31',
        voip_id: 1,
        user_id: null,
        phone_number_id: '43d765c7-c692-4b64-b17f-0021be4965c7',
        name: 'Company main line',
        external_caller_number: '+35227123400',
        external_caller_extension: '',
        is_default: true,
        created_at: '2026-11-02T08:30:00.000Z',
        updated_at: '2026-11-02T08:30:00.000Z',
        deleted_at: null,
      },
    ],
  },
);

export const CreateCallerIdentityBody = Type.Object(
  {
    phone_number_id: Uuid(),
    name: PbxText({ minLength: 1, maxLength: 255 }),
    external_caller_number: Type.Optional(PbxText({ minLength: 1, maxLength: 24, description: 'Defaults to the root phone number.' })),
    external_caller_extension: Type.Optional(Type.String({ pattern: '^[0-9]{0,16}$' })),
    user_id: Type.Optional(Nullable(Uuid())),
    is_default: Type.Optional(Type.Boolean()),
  },
  {
    additionalProperties: false,
    examples: [
      {
        phone_number_id: 'e1b2c3d4-5f60-4a7b-8c9d-0e1f2a3b4c5d',
        name: 'Support Luxembourg',
        external_caller_number: '+35227123456',
        external_caller_extension: '20',
        user_id: null,
        is_default: false,
      },
    ],
  },
);
export const UpdateCallerIdentityBody = Type.Partial(CreateCallerIdentityBody, { additionalProperties: false });

export const CallerIdentityParams = Type.Object({ callerIdentity: Uuid() });
export const CallerIdentityListQuery = ListQuery({
  sort: CALLER_IDENTITY_SORTS,
  filters: { user_id: Uuid(), trashed: TrashedFilterParam('caller identities') },
});
