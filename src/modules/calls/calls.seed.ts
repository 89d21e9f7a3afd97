import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DemoSeeder } from '../../platform/demo-seeder.js';
import { extensionsOfUsers } from '../directory/index.js';
import type { AppContext } from '../../platform/context.js';
import { callTimeOf } from './cdrs/call-time.js';
import type { IngestCdrView } from './cdrs/cdrs.schemas.js';
import { ingestCdrs } from './cdrs/cdrs.service.js';
import { upsertRecording } from './cdrs/cdrs.queries.js';
import { insertPlacedCall } from './engine/pbx-engine.queries.js';
import { recordingRelativePath, recordingsRoot } from './cdrs/recordings.js';

type Leg = IngestCdrView['receivers'][number];
type Flow = NonNullable<IngestCdrView['call_flow']>[number];

const CALLS = 320;
const EXTERNAL = [
  ['Jean Dupont', '+352621100200'],
  ['Sophie Martin', '+352691234567'],
  ['Hardware Depot', '+4930123456'],
  ['Café Namur', '+35222334455'],
  ['', '+33612345678'],
  ['Logistics Partner BV', '+31201234567'],
  ['', '+352661998877'],
] as const;

/** A short real PCM WAV (8 kHz, mono, 16-bit): a tone whose pitch depends on the call. */
export function demoWav(seconds: number, pitch: number): Buffer {
  const rate = 8000;
  const samples = Math.round(rate * seconds);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * pitch * i) / rate) * 6000 * Math.min(1, (samples - i) / 400)), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

function dice(seed: string) {
  let counter = 0;
  return (modulo: number) => createHash('sha256').update(`${seed}:${counter++}`).digest().readUInt32BE(0) % modulo;
}

interface Person {
  userId: string | null;
  name: string;
  number: string;
}

/**
 * A few hundred calls over the last three weeks: incoming calls through the main number, a queue
 * and an IVR, outgoing and internal calls, missed and busy ones, transfers, a conference, and
 * recordings (small real WAV files under the data directory).
 */
export const seedCallHistory: DemoSeeder = async (ctx: AppContext, tenant) => {
  const roll = dice(tenant.pbxId);
  const userRows = await ctx.db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name'])
    .where('pbx_id', '=', tenant.pbxId)
    .where('status', '=', 'active')
    .where('id', 'in', [tenant.admin.id, ...tenant.users.map((u) => u.id)])
    .execute();
  // Each person's first live extension (by number).
  const userIds = userRows.map((row) => row.id);
  const extensions = await extensionsOfUsers(ctx.db, tenant, userIds);
  const numbers = new Map<string, string>();
  for (const extension of extensions) if (extension.user_id && !numbers.has(extension.user_id)) numbers.set(extension.user_id, extension.number);
  const staff: Person[] = userRows.map((row, index) => ({
    userId: row.id,
    name: `${row.first_name} ${row.last_name}`,
    number: numbers.get(row.id) ?? String(101 + index),
  }));
  const pick = <T>(items: readonly T[]) => items[roll(items.length)];
  const external = (): Person => {
    const [name, number] = pick(EXTERNAL);
    return { userId: null, name, number };
  };
  const now = ctx.clock.now();
  // Call ids are the PBX's own (unique per PBX); each demo tenant gets its own range, so one tenant's sample id is no record of the other.
  const baseId = Math.floor(now.getTime() / 1000) * 1000 + tenant.index * 10_000;
  const records: IngestCdrView[] = [];
  const recorded: Array<{ record: IngestCdrView; id: number; seconds: number }> = [];

  for (let i = 0; i < CALLS; i++) {
    const day = Math.floor((i * 21) / CALLS);
    const start = new Date(now.getTime() - (21 - day) * 86_400_000);
    start.setUTCHours(7 + roll(10), roll(60), roll(60), 0);
    const at = (seconds: number) => callTimeOf(new Date(start.getTime() + seconds * 1000));
    const kind = i === 7 ? 'conference' : pick(['in', 'in', 'in', 'queue', 'ivr', 'out', 'out', 'internal', 'missed', 'transfer'] as const);
    const ring = 3 + roll(15);
    const talk = 20 + roll(400);
    const answeredBy = pick(staff);
    const flow: Flow[] = [{ color: 'info', text: 'Call started', sub_text: null, time: at(0) }];
    let caller: Person;
    let type: IngestCdrView['type'] = 'INCOMING';
    let internal = false;
    let transfer = false;
    let conference: Array<Record<string, unknown>> = [];
    const legs: Leg[] = [];
    const leg = (person: Person, status: Leg['status'], from: number, answerAfter: number | null, end: number, via: Partial<Leg> = {}): Leg => ({
      user_id: person.userId,
      status,
      name: person.name,
      number: person.number,
      start_time: at(from),
      answer_time: answerAfter === null ? null : at(from + answerAfter),
      end_time: at(end),
      duration: end - from,
      billsec: answerAfter === null ? 0 : end - from - answerAfter,
      via_id: null,
      via_name: null,
      via_number: null,
      via_type: null,
      ...via,
    });
    const end = ring + talk;
    switch (kind) {
      case 'in':
        caller = external();
        legs.push(leg(answeredBy, 'ANSWERED', 0, ring, end, { via_id: 'cf-main', via_name: 'Main number', via_number: '+35227100100', via_type: 'CALL_FLOW' }));
        flow.push(
          { color: 'secondary', text: 'Call flow "Main number"', sub_text: 'Business hours', time: at(0) },
          { color: 'success', text: `Answered by ${answeredBy.name}`, sub_text: null, time: at(ring) },
        );
        break;
      case 'queue': {
        caller = external();
        const via = { via_id: 'queue-support', via_name: 'Support queue', via_number: '600', via_type: 'QUEUE' as const };
        for (const person of staff)
          legs.push(person === answeredBy ? leg(person, 'ANSWERED', 2, ring, end, via) : leg(person, 'MISSED', 2, null, 2 + ring, via));
        flow.push(
          { color: 'secondary', text: 'Entered queue "Support queue"', sub_text: `${staff.length} agents`, time: at(2) },
          { color: 'success', text: `Answered by ${answeredBy.name}`, sub_text: 'Support queue', time: at(2 + ring) },
        );
        break;
      }
      case 'ivr': {
        caller = external();
        const option = 1 + roll(3);
        legs.push(leg(answeredBy, 'ANSWERED', 12, ring, end + 12, { via_id: 'ivr-main', via_name: 'Welcome menu', via_number: '700', via_type: 'IVR' }));
        flow.push(
          { color: 'secondary', text: 'IVR "Welcome menu"', sub_text: null, time: at(0) },
          { color: 'info', text: `Pressed ${option}`, sub_text: option === 1 ? 'Sales' : option === 2 ? 'Support' : 'Accounting', time: at(10) },
          { color: 'success', text: `Answered by ${answeredBy.name}`, sub_text: null, time: at(12 + ring) },
        );
        break;
      }
      case 'out': {
        caller = answeredBy;
        type = 'OUTGOING';
        const outcome = pick(['ANSWERED', 'ANSWERED', 'ANSWERED', 'BUSY', 'MISSED', 'FAILED'] as const);
        const callee = external();
        legs.push(leg(callee, outcome, 0, outcome === 'ANSWERED' ? ring : null, outcome === 'ANSWERED' ? end : outcome === 'MISSED' ? 30 : 1));
        flow.push(
          outcome === 'ANSWERED'
            ? { color: 'success', text: 'Answered', sub_text: callee.number, time: at(ring) }
            : {
                color: outcome === 'BUSY' ? 'danger' : 'warning',
                text: outcome === 'BUSY' ? 'Busy' : outcome === 'MISSED' ? 'Not answered' : 'Call failed',
                sub_text: callee.number,
                time: at(1),
              },
        );
        break;
      }
      case 'internal': {
        caller = answeredBy;
        type = 'OUTGOING';
        internal = true;
        const callee = pick(staff.filter((p) => p !== answeredBy).concat(staff.length > 1 ? [] : [answeredBy]));
        legs.push(leg(callee, 'ANSWERED', 0, ring, end));
        flow.push({ color: 'success', text: `Answered by ${callee.name}`, sub_text: 'Internal call', time: at(ring) });
        break;
      }
      case 'missed': {
        caller = external();
        for (const person of staff)
          legs.push(leg(person, 'MISSED', 0, null, 25, { via_id: 'cf-main', via_name: 'Main number', via_number: '+35227100100', via_type: 'CALL_FLOW' }));
        flow.push({ color: 'warning', text: 'Nobody answered', sub_text: 'Voicemail', time: at(25) });
        break;
      }
      case 'transfer': {
        caller = external();
        transfer = true;
        const target = pick(staff.filter((p) => p !== answeredBy).concat(staff.length > 1 ? [] : [answeredBy]));
        const transferAt = ring + 30 + roll(60);
        legs.push(leg(answeredBy, 'ANSWERED', 0, ring, transferAt), leg(target, 'ANSWERED', transferAt, 4, end + 4));
        flow.push(
          { color: 'success', text: `Answered by ${answeredBy.name}`, sub_text: null, time: at(ring) },
          { color: 'info', text: `Transferred to ${target.name}`, sub_text: 'Attended transfer', time: at(transferAt) },
          { color: 'success', text: `Answered by ${target.name}`, sub_text: null, time: at(transferAt + 4) },
        );
        break;
      }
      default: {
        caller = answeredBy;
        type = 'OUTGOING';
        const guests = [external(), external()];
        for (const person of [...staff.filter((p) => p !== answeredBy), ...guests]) legs.push(leg(person, 'ANSWERED', 5, ring, end));
        conference = [{ room: '800', name: 'Weekly sync', participants: legs.length + 1, moderator: answeredBy.name }];
        flow.push(
          { color: 'info', text: 'Conference room 800 opened', sub_text: 'Weekly sync', time: at(5) },
          { color: 'success', text: `${legs.length + 1} participants joined`, sub_text: null, time: at(5 + ring) },
        );
        break;
      }
    }
    const lastEnd = legs.reduce((max, l) => (l.end_time > max ? l.end_time : max), at(1));
    const answered = legs.filter((l) => l.status === 'ANSWERED');
    const firstAnswer = answered.map((l) => l.answer_time!).sort()[0] ?? null;
    const duration = Math.round((new Date(`${lastEnd.replace(' ', 'T')}Z`).getTime() - start.getTime()) / 1000);
    const billsec = firstAnswer ? duration - Math.round((new Date(`${firstAnswer.replace(' ', 'T')}Z`).getTime() - start.getTime()) / 1000) : 0;
    flow.push({ color: 'secondary', text: 'Call ended', sub_text: null, time: lastEnd });
    const record: IngestCdrView = {
      cdr_id: baseId + i,
      type,
      start_time: at(0),
      answer_time: firstAnswer,
      end_time: lastEnd,
      duration,
      billsec,
      is_internal: internal,
      is_transfer_call: transfer,
      is_conference_call: kind === 'conference',
      conference,
      caller: { user_id: caller.userId, name: caller.name, number: caller.number },
      receivers: legs,
      call_flow: flow,
      notes: i % 23 === 0 ? [{ text: 'Customer asked for a call back next week.', author: answeredBy.name }] : [],
    };
    records.push(record);
    if (answered.length && (kind === 'queue' || kind === 'conference' || i % 9 === 0)) recorded.push({ record, id: baseId + i, seconds: 1 + roll(3) });
  }

  for (let i = 0; i < records.length; i += 100) await ingestCdrs(ctx, { pbxId: tenant.pbxId }, records.slice(i, i + 100), 'seed');

  const root = recordingsRoot(ctx.config.dataDir, tenant.pbxId);
  let samplePath = '';
  let sampleRecorded = 0;
  for (const { record, id, seconds } of recorded) {
    const path = recordingRelativePath(record.start_time, id, 'full', '.wav');
    const file = demoWav(seconds, 330 + (id % 5) * 110);
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), file);
    await upsertRecording(ctx.db, {
      pbx_id: tenant.pbxId,
      cdr_id: id,
      kind: 'full',
      path,
      name: path.split('/').pop()!,
      content_type: 'audio/wav',
      size_bytes: file.length,
      created_at: now.toISOString(),
    });
    // The sample is one the first demo user (who sees its own calls and recordings) took part in.
    if (!samplePath && record.receivers.some((l) => l.user_id === tenant.users[1]?.id)) {
      samplePath = path;
      sampleRecorded = id;
    }
  }
  if (!samplePath && recorded.length) {
    sampleRecorded = recorded[0].id;
    samplePath = recordingRelativePath(recorded[0].record.start_time, sampleRecorded, 'full', '.wav');
  }
  // A call placed through POST /calls/new by the first demo user, ended and linked to its record (GET /calls/{id}).
  const placedBy = tenant.users[0]?.id ?? tenant.admin.id;
  const placedRecord = records[records.length - 1];
  const placedCall = createHash('sha256').update(`placed-call:${tenant.pbxId}`).digest('hex');
  const placedCallId = `${placedCall.slice(0, 8)}-${placedCall.slice(8, 12)}-4${placedCall.slice(13, 16)}-8${placedCall.slice(17, 20)}-${placedCall.slice(20, 32)}`;
  await insertPlacedCall(ctx.db, {
    id: placedCallId,
    pbx_id: tenant.pbxId,
    user_id: placedBy,
    engine: 'simulated',
    destination: placedRecord.receivers[placedRecord.receivers.length - 1]?.number ?? '102',
    caller_identity_id: null,
    action_id: `pbxapi-${placedCallId}`,
    uniqueid: `pbxapi-${placedCallId}`,
    status: 'ended',
    endpoints: JSON.stringify({ ringing: [], skipped: [] }),
    reason: 'Normal Clearing',
    cdr_id: String(placedRecord.cdr_id),
    webhook_url: null,
    ended_at: placedRecord.end_time.replace(' ', 'T') + '.000Z',
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  });
  return {
    cdr: placedRecord.cdr_id,
    cdr_with_recording: sampleRecorded,
    recording_path: samplePath,
    cdr_count: records.length,
    placed_call: placedCallId,
  };
};
