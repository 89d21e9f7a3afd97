import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Nullable, PbxText, StringEnum, Uuid } from '../../../http/schema.js';

/**
 * The nodes of a call flow: a flat list of typed nodes naming each other by `key` (Kazoo's
 * `{module, data, children}` as a graph, so that a node can be shared by two branches and an
 * unreachable one can be told apart). The call enters at the flow's `entry` node.
 */
const NodeKey = (description: string) => Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description });
const Exit = (description: string) => Type.Optional(Nullable(NodeKey(description)));
const RingSeconds = Type.Integer({ minimum: 5, maximum: 300, default: 20, description: 'Seconds it rings before `no_answer`.' });
const Clock = (description: string) => Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$', description });

function node<const T extends string, P extends Record<string, TSchema>>(type: T, description: string, properties: P) {
  return Type.Object(
    {
      key: NodeKey('Unique within the flow; other nodes name this node by it.'),
      type: Type.Literal(type),
      label: Type.Optional(Nullable(Type.String({ maxLength: 128 }))),
      ...properties,
    },
    { $id: `CallFlowNode_${type}`, additionalProperties: false, title: type, description },
  );
}

export const OpenHours = Type.Object(
  {
    days: Type.Array(Type.Integer({ minimum: 1, maximum: 7 }), {
      minItems: 1,
      maxItems: 7,
      uniqueItems: true,
      description: 'ISO weekdays: 1 = Monday … 7 = Sunday.',
    }),
    from: Clock('Opening time, HH:MM in the PBX time zone.'),
    to: Clock('Closing time (not included), HH:MM, after `from`; 24:00 for midnight.'),
  },
  { additionalProperties: false },
);

export const CALL_FLOW_NODES = [
  node('ring_user', 'Ring a user (every device and twinning of theirs).', {
    user_id: Uuid(),
    timeout_seconds: RingSeconds,
    no_answer: Exit('Node taken when the user does not answer; empty = hang up.'),
  }),
  node('ring_extension', 'Ring an extension.', {
    extension_id: Uuid(),
    timeout_seconds: RingSeconds,
    no_answer: Exit('Node taken when nobody answers; empty = hang up.'),
  }),
  node('ring_group', 'Ring several users, all at once or one after the other.', {
    strategy: StringEnum(['simultaneous', 'sequential'] as const),
    members: Type.Array(Type.Object({ user_id: Uuid(), timeout_seconds: RingSeconds }, { additionalProperties: false }), { minItems: 1, maxItems: 50 }),
    no_answer: Exit('Node taken when nobody answers; empty = hang up.'),
  }),
  node('queue', 'Put the call into a queue (its overflow takes over when it is full or the wait runs out).', { queue_id: Uuid() }),
  node('ivr', 'Play an IVR menu.', { ivr_id: Uuid() }),
  node('call_flow', 'Continue in another call flow.', { call_flow_id: Uuid() }),
  node('voicemail', "Leave a message in a user's mailbox.", { user_id: Uuid() }),
  node('play', 'Play an announcement, then go on.', {
    sound_file_id: Uuid({ description: 'A sound file of type announcement.' }),
    next: Exit('Node after the announcement; empty = hang up.'),
  }),
  node('forward', 'Forward the call to a number outside the PBX.', {
    number: PbxText({ minLength: 1, maxLength: 24, description: 'Any dialable form; stored in E.164.' }),
  }),
  node('time_condition', 'Branch on the time of the call: open hours, closed, holiday.', {
    open_hours: Type.Array(OpenHours, { minItems: 1, maxItems: 50 }),
    public_holidays_country: Type.Optional(
      Nullable(
        Type.String({
          pattern: '^[A-Z]{2}$',
          description: "ISO country whose public holidays close the line (e.g. LU); empty = none. Defaults to the PBX's country.",
        }),
      ),
    ),
    tenant_holidays: Type.Optional(Type.Boolean({ default: true, description: "Whether the PBX's own holidays (workforce) close the line too." })),
    open: NodeKey('Node taken during open hours.'),
    closed: Exit('Node taken outside open hours (required: a line must say what happens when closed).'),
    holiday: Exit('Node taken on a holiday; empty = the closed branch. From the half-day split on for a half-day holiday.'),
  }),
  node('hangup', 'End the call.', {}),
] as const;

export type CallFlowNode = Static<(typeof CALL_FLOW_NODES)[number]>;
export type CallFlowNodeType = CallFlowNode['type'];
export const NODE_TYPES = CALL_FLOW_NODES.map((schema): CallFlowNodeType => schema.properties.type.const);

/**
 * One node of any type, told apart by `type` (OpenAPI and ajv discriminator). `type: object` is
 * needed beside it: ajv applies the discriminator (which stands in for `oneOf`) to objects only,
 * so without it a node that is `null`, a number or a string would pass validation.
 */
export const CallFlowNodeSchema = Type.Unsafe<CallFlowNode>({
  type: 'object',
  oneOf: CALL_FLOW_NODES.map((schema) => ({ $ref: `${schema.$id}#` })),
  discriminator: { propertyName: 'type' },
});

/** The resource kinds a node points at, by field (what `call_flow_references` records). */
export type NodeTargetType = 'user' | 'extension' | 'queue' | 'ivr' | 'call_flow' | 'sound_file';

export interface NodeTarget {
  type: NodeTargetType;
  id: string;
  field: string;
}

/** Every resource a node points at, with the field that does. */
export function nodeTargets(node: CallFlowNode): NodeTarget[] {
  switch (node.type) {
    case 'ring_user':
    case 'voicemail':
      return [{ type: 'user', id: node.user_id, field: 'user_id' }];
    case 'ring_extension':
      return [{ type: 'extension', id: node.extension_id, field: 'extension_id' }];
    case 'ring_group':
      return node.members.map((member, index) => ({ type: 'user' as const, id: member.user_id, field: `members.${index}.user_id` }));
    case 'queue':
      return [{ type: 'queue', id: node.queue_id, field: 'queue_id' }];
    case 'ivr':
      return [{ type: 'ivr', id: node.ivr_id, field: 'ivr_id' }];
    case 'call_flow':
      return [{ type: 'call_flow', id: node.call_flow_id, field: 'call_flow_id' }];
    case 'play':
      return [{ type: 'sound_file', id: node.sound_file_id, field: 'sound_file_id' }];
    default:
      return [];
  }
}

/** The nodes a node continues to within its flow, by field (an empty exit hangs up). */
export function nodeExits(node: CallFlowNode): Array<{ field: string; key: string | null }> {
  switch (node.type) {
    case 'ring_user':
    case 'ring_extension':
    case 'ring_group':
      return [{ field: 'no_answer', key: node.no_answer ?? null }];
    case 'play':
      return [{ field: 'next', key: node.next ?? null }];
    case 'time_condition':
      return [
        { field: 'open', key: node.open },
        { field: 'closed', key: node.closed ?? null },
        { field: 'holiday', key: node.holiday ?? null },
      ];
    default:
      return [];
  }
}
