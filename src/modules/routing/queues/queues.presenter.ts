import type { DestinationType } from '../shared/destinations.js';
import type { SoundFileSummaryView } from '../shared/sound-refs.js';
import type { QueueMemberRow, QueueRow } from './queues.queries.js';
import type { QueueMemberView, QueueView } from './queues.schemas.js';

/** A member's user or extension, for `include=members.user` / `members.extension`; undefined when not asked. */
type Lookup = ReadonlyMap<string, NonNullable<QueueMemberView['user'] | QueueMemberView['extension']>> | undefined;

/** One member as the contract shows it, with its user or extension where `include` asked for them (null for the other type). */
export function presentQueueMember(member: QueueMemberRow, users: Lookup, extensions: Lookup): QueueMemberView {
  const view: QueueMemberView = { type: member.member_type, id: member.member_id, penalty: member.penalty, position: member.position };
  if (users) view.user = member.member_type === 'user' ? ((users.get(member.member_id) as QueueMemberView['user']) ?? null) : null;
  if (extensions) view.extension = member.member_type === 'extension' ? ((extensions.get(member.member_id) as QueueMemberView['extension']) ?? null) : null;
  return view;
}

/** What a queue's answer needs beside its row: its members (presented), the included sound files, and what was asked. */
export interface QueueRelations {
  members: QueueMemberView[];
  sound: (id: string | null) => SoundFileSummaryView | null;
  include: ReadonlySet<string>;
}

/** The contract's queue: members always; the sound files only when `include` names them. */
export function presentQueue(row: QueueRow, { members, sound, include }: QueueRelations): QueueView {
  const view: QueueView = {
    id: row.id,
    pbx_id: row.pbx_id,
    name: row.name,
    strategy: row.strategy,
    max_wait_seconds: row.max_wait_seconds,
    max_callers: row.max_callers,
    member_timeout_seconds: row.member_timeout_seconds,
    wrap_up_seconds: row.wrap_up_seconds,
    music_on_hold_id: row.music_on_hold_id,
    announcement_id: row.announcement_id,
    overflow: { type: row.overflow_type as DestinationType, id: row.overflow_target_id, number: row.overflow_number },
    members,
    created_at: row.created_at,
    updated_at: row.updated_at,
    deleted_at: row.deleted_at,
  };
  if (include.has('announcement')) view.announcement = sound(row.announcement_id);
  if (include.has('musicOnHold')) view.musicOnHold = sound(row.music_on_hold_id);
  return view;
}
