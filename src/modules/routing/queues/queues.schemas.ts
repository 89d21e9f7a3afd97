import { Type, type Static } from '@sinclair/typebox';
import { IncludeParam } from '../../../http/include.js';
import { ListQuery } from '../../../http/list-query.js';
import { DateTime, Nullable, PbxText, StringEnum, Uuid } from '../../../http/schema.js';
import { TrashedFilterParam } from '../../../http/soft-delete.js';
import { Destination, DESTINATION_TYPES } from '../shared/destinations.js';
import { SoundFileSummary } from '../shared/sound-refs.js';

/** How the queue picks whom to ring, as Asterisk's app_queue names them. */
export const QUEUE_STRATEGIES = ['ringall', 'round_robin', 'least_recent', 'fewest_calls', 'random'] as const;
export const QUEUE_MEMBER_TYPES = ['user', 'extension'] as const;
export const QUEUE_SORTS = ['name', 'created_at'] as const;
/** `members.user` and `members.extension` embed each member's user or extension; the sound files by their relation names. */
export const QUEUE_INCLUDES = ['members.user', 'members.extension', 'announcement', 'musicOnHold'] as const;
export const MAX_QUEUE_MEMBERS = 200;

export const QUEUE_DEFAULTS = {
  strategy: 'ringall',
  max_wait_seconds: 300,
  member_timeout_seconds: 20,
  wrap_up_seconds: 10,
} as const;

const QueueMemberUser = Type.Object(
  { id: Uuid(), first_name: Type.String(), last_name: Type.String(), email: Type.String({ format: 'email' }) },
  { description: 'The member user.' },
);
const QueueMemberExtension = Type.Object({ id: Uuid(), number: Type.String(), name: Type.String() }, { description: 'The member extension.' });

export const QueueMember = Type.Object({
  type: StringEnum(QUEUE_MEMBER_TYPES, { description: 'user (rings the user’s devices) or extension.' }),
  id: Uuid({ description: 'The user or extension.' }),
  penalty: Type.Integer({ minimum: 0, maximum: 100, description: 'Members with a lower penalty are rung first; 0 by default.' }),
  position: Type.Integer({ minimum: 1, description: 'Place in the list, from 1, as given in the request’s order.' }),
  user: Type.Optional(Nullable(QueueMemberUser, { description: 'With include=members.user: the user; null for an extension member.' })),
  extension: Type.Optional(Nullable(QueueMemberExtension, { description: 'With include=members.extension: the extension; null for a user member.' })),
});

export const QueueOverflow = Type.Object(
  {
    type: StringEnum(DESTINATION_TYPES),
    id: Nullable(Uuid(), { description: 'The user, extension, queue, IVR or call flow; null for hangup and external.' }),
    number: Nullable(Type.String(), { description: 'For external: the number in E.164; null otherwise.' }),
  },
  { description: 'Where a caller goes when the queue is full, has no one to ring or the wait runs out.' },
);

const SoundFile = (what: string) => Nullable(SoundFileSummary, { description: `With include=${what}: the sound file; null when none.` });

export const Queue = Type.Object(
  {
    id: Uuid(),
    pbx_id: Uuid(),
    name: Type.String(),
    strategy: StringEnum(QUEUE_STRATEGIES),
    max_wait_seconds: Type.Integer({ description: 'Seconds a caller waits before the overflow.' }),
    max_callers: Nullable(Type.Integer(), { description: 'Callers waiting at most; null = no limit.' }),
    member_timeout_seconds: Type.Integer({ description: 'Seconds each member rings per attempt.' }),
    wrap_up_seconds: Type.Integer({ description: 'Seconds a member rests after a call before the queue rings them again.' }),
    music_on_hold_id: Nullable(Uuid(), { description: 'Sound file of type music played while waiting; null = the PBX default.' }),
    announcement_id: Nullable(Uuid(), { description: 'Sound file of type announcement played on entry.' }),
    overflow: QueueOverflow,
    members: Type.Array(QueueMember, { description: 'In ring order; empty when none.' }),
    announcement: Type.Optional(SoundFile('announcement')),
    musicOnHold: Type.Optional(SoundFile('musicOnHold')),
    created_at: DateTime(),
    updated_at: DateTime(),
    deleted_at: Nullable(DateTime()),
  },
  {
    $id: 'Queue',
    examples: [
      {
        id: 'c7be49b6-48a9-4c39-8457-21f3eca4eacc',
        pbx_id: '5b434841-6826-4eb7-9e1e-52f33261ad31',
        name: 'Support',
        strategy: 'least_recent',
        max_wait_seconds: 180,
        max_callers: 10,
        member_timeout_seconds: 25,
        wrap_up_seconds: 15,
        music_on_hold_id: '3d61dfd3-9158-4e23-93a8-4eca546535d9',
        announcement_id: null,
        overflow: { type: 'voicemail', id: 'e84e9823-c8fa-4b5e-982c-30baaf0f0efc', number: null },
        members: [
          { type: 'user', id: 'e84e9823-c8fa-4b5e-982c-30baaf0f0efc', penalty: 0, position: 1 },
          { type: 'user', id: '2d7d40fc-5d58-4887-9624-db2cc510214d', penalty: 1, position: 2 },
        ],
        created_at: '2026-11-02T08:30:00.000Z',
        updated_at: '2026-11-02T08:30:00.000Z',
        deleted_at: null,
      },
    ],
  },
);
export type QueueView = Static<typeof Queue>;
export type QueueMemberView = Static<typeof QueueMember>;

const MemberInput = Type.Object(
  {
    type: StringEnum(QUEUE_MEMBER_TYPES),
    id: Uuid({ description: 'A live user or extension of the PBX (a disabled user may be a member).' }),
    penalty: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: '0-100, default 0.' })),
  },
  { additionalProperties: false },
);

export const CreateQueueBody = Type.Object(
  {
    name: PbxText({ minLength: 1, maxLength: 128 }),
    strategy: Type.Optional(StringEnum(QUEUE_STRATEGIES, { description: 'Default ringall.' })),
    max_wait_seconds: Type.Optional(Type.Integer({ minimum: 10, maximum: 7200, description: 'Default 300.' })),
    max_callers: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 500 }), { description: 'null (default) = no limit.' })),
    member_timeout_seconds: Type.Optional(Type.Integer({ minimum: 5, maximum: 120, description: 'Default 20.' })),
    wrap_up_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 600, description: 'Default 10.' })),
    music_on_hold_id: Type.Optional(Nullable(Uuid({ description: 'A sound file of type music.' }))),
    announcement_id: Type.Optional(Nullable(Uuid({ description: 'A sound file of type announcement.' }))),
    overflow: Type.Optional(Destination),
    members: Type.Optional(
      Type.Array(MemberInput, {
        maxItems: MAX_QUEUE_MEMBERS,
        description: `0-${MAX_QUEUE_MEMBERS} members in ring order, each once; on update the list replaces the queue’s members.`,
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Support',
        strategy: 'least_recent',
        max_wait_seconds: 180,
        max_callers: 10,
        music_on_hold_id: '9b8c7d6e-5f4a-4b3c-9d2e-1f0a9b8c7d6e',
        overflow: { type: 'voicemail', id: '3f0e8b1c-5d2a-4c6e-9b7f-1a2b3c4d5e6f' },
        members: [
          { type: 'user', id: '3f0e8b1c-5d2a-4c6e-9b7f-1a2b3c4d5e6f', penalty: 0 },
          { type: 'extension', id: '5e4d3c2b-1a0f-4e9d-8c7b-6a5f4e3d2c1b', penalty: 1 },
        ],
      },
    ],
  },
);
export const UpdateQueueBody = Type.Partial(CreateQueueBody, { additionalProperties: false });
export type CreateQueueInput = Static<typeof CreateQueueBody>;
export type UpdateQueueInput = Static<typeof UpdateQueueBody>;

export const QueueParams = Type.Object({ queue: Uuid() });
export const QueueInclude = Type.Object({ include: IncludeParam(QUEUE_INCLUDES) });
export const QueueListQuery = ListQuery({
  sort: QUEUE_SORTS,
  include: QUEUE_INCLUDES,
  filters: {
    strategy: StringEnum(QUEUE_STRATEGIES),
    member_id: Uuid({ description: 'Queues having this user or extension as a member.' }),
    trashed: TrashedFilterParam('queues'),
  },
});
