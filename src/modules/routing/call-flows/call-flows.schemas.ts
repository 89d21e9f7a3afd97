import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, PbxText, StringEnum, Uuid } from '../../../http/schema.js';
import { IncludeParam } from '../../../http/include.js';
import { ListQuery } from '../../../http/list-query.js';
import { TrashedFilterParam } from '../../../http/soft-delete.js';
import { CallFlowNodeSchema, NODE_TYPES } from './call-flow-nodes.js';

export const CALL_FLOW_SORTS = ['name', 'created_at', 'updated_at'] as const;
export const CALL_FLOW_INCLUDES = ['used_by'] as const;

const UsedBy = Type.Array(
  Type.Object({
    type: Type.String({ description: 'phone_number, ivr_step, call_flow, queue, contact, contact_group.' }),
    id: Type.String(),
    name: Type.String(),
    path: Nullable(Type.String()),
  }),
  { description: 'What routes calls into this flow (`include=used_by`).' },
);

export const CallFlow = Type.Object(
  {
    id: Uuid(),
    pbx_id: Uuid(),
    name: Type.String(),
    description: Nullable(Type.String()),
    entry: Type.String({ description: 'Key of the node a call enters at.' }),
    nodes: Type.Array(CallFlowNodeSchema),
    used_by: Type.Optional(UsedBy),
    created_at: DateTime(),
    updated_at: DateTime(),
    deleted_at: Nullable(DateTime()),
  },
  {
    $id: 'CallFlow',
    examples: [
      {
        id: '73f8cb2c-51b4-4e31-b6bb-4296620d00d4',
        pbx_id: '5b434841-6826-4eb7-9e1e-52f33261ad31',
        name: 'Main number',
        description: 'Business hours Monday to Friday 08:00-18:00; Luxembourg and company holidays closed.',
        entry: 'hours',
        nodes: [
          {
            key: 'hours',
            type: 'time_condition',
            open_hours: [{ days: [1, 2, 3, 4, 5], from: '08:00', to: '18:00' }],
            open: 'menu',
            public_holidays_country: 'LU',
            tenant_holidays: true,
            closed: 'closed-message',
            holiday: 'holiday-message',
          },
          { key: 'menu', type: 'ivr', ivr_id: 'e4f90702-01c5-47ef-b715-71f55b2d49bd' },
          { key: 'closed-message', type: 'play', sound_file_id: '0a0c9c5a-a987-4695-b7c0-020279268904', next: 'mailbox' },
          { key: 'holiday-message', type: 'play', sound_file_id: '0b3c59c1-dd84-46e7-adb9-7ec3e56173a2', next: 'mailbox' },
          { key: 'mailbox', type: 'voicemail', user_id: 'e84e9823-c8fa-4b5e-982c-30baaf0f0efc' },
        ],
        created_at: '2026-11-02T08:30:00.000Z',
        updated_at: '2026-11-02T08:30:00.000Z',
        deleted_at: null,
      },
    ],
    description: 'A call flow: typed nodes naming each other by key, entered at `entry`.',
  },
);

const Nodes = Type.Array(CallFlowNodeSchema, { minItems: 1, maxItems: 200 });
export const CreateCallFlowBody = Type.Object(
  {
    name: PbxText({ minLength: 1, maxLength: 128 }),
    description: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
    entry: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'Key of the node a call enters at.' }),
    nodes: Nodes,
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Main number',
        description: 'Business hours; Luxembourg holidays closed',
        entry: 'hours',
        nodes: [
          {
            key: 'hours',
            type: 'time_condition',
            open_hours: [{ days: [1, 2, 3, 4, 5], from: '08:00', to: '18:00' }],
            public_holidays_country: 'LU',
            tenant_holidays: true,
            open: 'reception',
            closed: 'closed-message',
            holiday: 'closed-message',
          },
          { key: 'reception', type: 'ring_user', user_id: '3f0e8b1c-5d2a-4c6e-9b7f-1a2b3c4d5e6f', timeout_seconds: 20, no_answer: 'mailbox' },
          { key: 'closed-message', type: 'play', sound_file_id: '7a1d2e3f-4b5c-4d6e-8f90-a1b2c3d4e5f6', next: 'mailbox' },
          { key: 'mailbox', type: 'voicemail', user_id: '3f0e8b1c-5d2a-4c6e-9b7f-1a2b3c4d5e6f' },
        ],
      },
    ],
  },
);
export const UpdateCallFlowBody = Type.Partial(CreateCallFlowBody, { additionalProperties: false });

export const CallFlowParams = Type.Object({ callFlow: Uuid() });
export const CallFlowReadQuery = Type.Object({ include: IncludeParam(CALL_FLOW_INCLUDES) }, { additionalProperties: false });
export const CallFlowListQuery = ListQuery({
  sort: CALL_FLOW_SORTS,
  include: CALL_FLOW_INCLUDES,
  filters: {
    trashed: TrashedFilterParam('call flows'),
    node_type: StringEnum(NODE_TYPES, { description: 'Flows having a node of this type.' }),
    target_id: Uuid({ description: 'Flows whose nodes point at this user, extension, queue, IVR, call flow or sound file.' }),
  },
});
