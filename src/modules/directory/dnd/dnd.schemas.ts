import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum, Uuid } from '../../../http/schema.js';

export const DND_TYPES = ['internal', 'external'] as const;

export const DndRule = Type.Object(
  {
    id: Uuid(),
    user_id: Uuid(),
    type: StringEnum(DND_TYPES, { description: 'internal: calls from colleagues; external: calls to one caller identity.' }),
    caller_identity_id: Nullable(Type.Integer({ description: 'Engine id (voip_id) of the caller identity; null for internal rules.' })),
    extension_id: Nullable(Type.Integer({ description: 'Engine id (voip_id) of the extension the rule is limited to; null: all of the user\u2019s.' })),
    status: Type.Boolean({ description: 'true: do not disturb is on for this rule.' }),
  },
  {
    $id: 'DndRule',
    examples: [
      {
        id: '222e09c2-15b7-4ca8-a739-f331e7d1f288',
        user_id: 'cc54d4ae-8057-438f-8cd8-f22406bd64cd',
        type: 'external',
        caller_identity_id: 1,
        extension_id: null,
        status: true,
      },
    ],
  },
);

const ruleFields = {
  type: StringEnum(DND_TYPES),
  caller_identity_id: Nullable(Uuid({ description: 'Required when type is external; must be empty for internal.' })),
  extension_id: Nullable(Uuid({ description: 'One of the user\u2019s extensions, or null for all.' })),
  status: Type.Boolean(),
};

export const CreateDndBody = Type.Object(
  {
    type: ruleFields.type,
    caller_identity_id: Type.Optional(ruleFields.caller_identity_id),
    extension_id: Type.Optional(ruleFields.extension_id),
    status: ruleFields.status,
  },
  {
    additionalProperties: false,
    examples: [{ type: 'external', caller_identity_id: '5d8e2f14-7a3b-4c6d-9e0f-1a2b3c4d5e6f', extension_id: null, status: true }],
  },
);

/** PUT replaces the rule: omitted fields reset to their defaults (internal, no identity, all extensions). */
export const ReplaceDndBody = Type.Object(
  {
    status: ruleFields.status,
    type: Type.Optional(ruleFields.type),
    caller_identity_id: Type.Optional(ruleFields.caller_identity_id),
    extension_id: Type.Optional(ruleFields.extension_id),
  },
  { additionalProperties: false, examples: [{ status: false, type: 'internal', extension_id: null }] },
);

export const BulkDndBody = Type.Object(
  {
    dnds: Type.Array(
      // The contract requires caller_identity_id only for external rules: an internal one may leave it out.
      Type.Object(
        { type: ruleFields.type, caller_identity_id: Type.Optional(ruleFields.caller_identity_id), status: ruleFields.status },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 200 },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        dnds: [
          { type: 'internal', status: true },
          { type: 'external', caller_identity_id: '5d8e2f14-7a3b-4c6d-9e0f-1a2b3c4d5e6f', status: false },
        ],
      },
    ],
  },
);
export const BulkDndResponse = Type.Object({
  data: Type.Array(Type.Object({ id: Uuid(), status: Type.Boolean() }), {
    examples: [
      [
        { id: '9f3b6d21-4c8a-4e7f-b2d5-6a1e0c9f8b34', status: true },
        { id: '222e09c2-15b7-4ca8-a739-f331e7d1f288', status: false },
      ],
    ],
  }),
});

export const DndParams = Type.Object({ user: Uuid(), userDnd: Uuid() });
export const DndListQuery = Type.Object({ 'filter[type]': Type.Optional(StringEnum(DND_TYPES)) });
