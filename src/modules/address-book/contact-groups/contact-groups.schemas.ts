import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Uuid } from '../../../http/schema.js';
import { ListQuery } from '../../../http/list-query.js';

const id = (description: string) => Type.Optional(Nullable(Uuid({ description })));

/** Create and PUT share this body; PUT replaces the group (omitted fields are cleared). */
export const ContactGroupBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255, examples: ['Suppliers'] }),
    description: Type.Optional(Nullable(Type.String({ maxLength: 65535 }))),
    default_internal_call_flow_id: id('A call flow of the PBX.'),
    default_external_call_flow_id: id('A call flow of the PBX.'),
    extension_id_shown_outside_the_group: id('An extension of the PBX.'),
    default_caller_identity_id: id('A caller identity of the PBX.'),
    external_uid: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
    allow_call_pickups: Type.Optional(Type.Boolean()),
    allow_default_pbxes_outgoing_phone_numbers: Type.Optional(Type.Boolean()),
    display_tab_to_everyone_inside_voxbi: Type.Optional(Type.Boolean()),
    users: Type.Optional(Type.Array(Uuid(), { uniqueItems: true, maxItems: 1000, description: 'Users of the PBX who see this group.' })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Suppliers',
        description: 'Building suppliers in Luxembourg and the Saarland',
        default_external_call_flow_id: 'c4a7e2d9-5b13-4f6e-8a90-2d3c4b5e6f71',
        allow_call_pickups: true,
        users: ['3f6c1a52-8d4e-4b7a-9c2f-5e1d7a9b0c31'],
      },
    ],
  },
);
export type ContactGroupInput = Static<typeof ContactGroupBody>;

export const ContactGroupParams = Type.Object({ group: Uuid({ description: 'contact group id (UUID)' }) });
export const ContactGroupListQuery = ListQuery({ sort: ['name', 'created_at'] });
