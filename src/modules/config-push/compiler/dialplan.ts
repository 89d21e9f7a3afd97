import type { CallFlowNode } from '../../routing/index.js';
import { clockTime, commentText, compactId, e164, extensionNumber, isoDate, language, nodeLabel, timeZone } from './escape.js';
import { ringContext, ringExternalContext } from '../../../platform/pbx-names.js';
import { CARRIER_CONTEXT, TRUNK, sortBy, unique, type CompileModel } from './model.js';
import type { ConfigLine, ConfigSection } from './render.js';
import type { SnapshotCallFlow, SnapshotExtension, SnapshotForward, SnapshotIvr, SnapshotQueue } from './snapshot.js';

/**
 * extensions.conf (configs/samples/extensions.conf.sample, `exten => name,priority(label),App(args)`
 * and `same => n,...`). Layout, every context prefixed with the tenant's `t<hex>`:
 *
 * - `[t…]` the devices' context: each extension (DND, forwards, ring, voicemail), `*97` for the
 *   caller's mailbox, and `include => t…-outbound`.
 * - `[t…-inbound]` the carrier's context: each phone number (E.164) to its destination; it marks
 *   the call external (`PBXAPI_ORIGIN`) and keeps the number dialled (`PBXAPI_DID`) for DND rules.
 *   The host's trunk delivers calls into `[pbxapi-from-carrier]`, which each tenant's file extends
 *   with an `include` of its own inbound context (pbx_config merges a context defined in several
 *   files), so one trunk serves every tenant of the Asterisk.
 * - `[t…-user-<id>]` a user as a destination (a number, an overflow): the same treatment as an
 *   extension, ringing all of the user's devices.
 * - `[t…-twinning]` one leg per twinning: its delay, then its FMC strategy's dial strings.
 * - `[t…-agents]` what a queue member rings (queue members are Local channels).
 * - `[t…-flow-<id>]`, `[t…-ivr-<id>]`, `[t…-queue-<id>]` the routing; `[t…-outbound]` the way out.
 * - `[t…-ring]`, `[t…-ring-external]` the contexts the calls engine originates through (README,
 *   "Calls"); external numbers leave through the host's PJSIP endpoint `pbxapi-trunk`.
 *
 * Nothing here is shared with another tenant on the same Asterisk (no `[globals]`, no context
 * without the prefix): the host's `extensions.conf` includes each tenant's file beside its own.
 *
 * Application arguments never hold free text: names are in comments, numbers are validated,
 * everything else is an id or a fixed word. Every path through a block ends in Goto or Hangup.
 */
export function compileDialplan(model: CompileModel): ConfigSection[] {
  const sections: ConfigSection[] = [
    ringContexts(model),
    ringExternalContexts(model),
    mainContext(model),
    carrierEntry(model),
    inboundContext(model),
    outboundContext(model),
    ...userContexts(model),
    twinningContext(model),
    agentsContext(model),
    ...sortBy(model.snapshot.callFlows, (f) => f.id).flatMap((flow) => flowContext(model, flow)),
    ...sortBy(model.snapshot.ivrs, (i) => i.id).flatMap((ivr) => ivrContext(model, ivr)),
    ...sortBy(model.snapshot.queues, (q) => q.id).flatMap((queue) => queueContext(model, queue)),
  ];
  return sections.filter((s) => s.lines.length > 0);
}

/** Builds one extension: `exten => name,1,...` then `same => n,...`, with optional labels. */
class Exten {
  readonly lines: ConfigLine[] = [];
  constructor(private readonly name: string) {}
  add(app: string, label?: string): this {
    const priority = this.lines.length === 0 ? '1' : 'n';
    const labelled = label ? `${priority}(${label})` : priority;
    this.lines.push(
      this.lines.length === 0
        ? { key: 'exten', value: `${this.name},${labelled},${app}`, object: true }
        : { key: 'same', value: `${labelled},${app}`, object: true },
    );
    return this;
  }
  addAll(apps: string[], label?: string): this {
    apps.forEach((app, index) => this.add(app, index === 0 ? label : undefined));
    return this;
  }
}

const external = (model: CompileModel, number: string) => `Goto(${ringExternalContext(model.prefix)},${number},1)`;
/** Dial strings of a leg; `external:<E.164>` leaves through the trunk. */
const dialString = (target: string) => (target.startsWith('external:') ? `PJSIP/${target.slice('external:'.length)}@${TRUNK}` : target);

function ringContexts(model: CompileModel): ConfigSection {
  return {
    name: ringContext(model.prefix),
    comment: 'Calls engine: several endpoints at once (PBXAPI_RING holds the &-joined dial strings).',
    lines: [...new Exten('ring').add('Dial(${PBXAPI_RING},30)').add('Hangup()').lines],
  };
}

function ringExternalContexts(model: CompileModel): ConfigSection {
  return {
    name: ringExternalContext(model.prefix),
    comment: 'External numbers (E.164) and emergency calls, through the trunk.',
    lines: [
      ...new Exten('_+X.').add(`Dial(PJSIP/\${EXTEN}@${TRUNK},60)`).add('Hangup()').lines,
      ...new Exten('112').add(`Dial(PJSIP/112@${TRUNK})`).add('Hangup()').lines,
    ],
  };
}

/** Where a call goes for a destination type and id (numbers, IVR steps, overflows, flow nodes). */
function destination(model: CompileModel, type: string, id: string | null, number: string | null = null, greeting: 'u' | 'b' = 'u'): string[] {
  switch (type) {
    case 'user': {
      const name = model.activeUser(id) ? model.name('user', id) : null;
      return name ? [`Goto(${name},s,1)`] : ['Hangup()'];
    }
    case 'extension': {
      const extension = id ? model.extensions.get(id) : undefined;
      const digits = extensionNumber(extension?.number);
      return digits ? [`Goto(${model.context},${digits},1)`] : ['Hangup()'];
    }
    case 'voicemail': {
      const mailbox = id && model.activeUser(id) ? model.mailboxOf(id) : null;
      return mailbox ? [`VoiceMail(${mailbox},${greeting})`, 'Hangup()'] : ['Hangup()'];
    }
    case 'call_flow':
    case 'ivr':
    case 'queue': {
      const live = id && (type === 'call_flow' ? model.flows.has(id) : type === 'ivr' ? model.ivrs.has(id) : model.queues.has(id));
      const name = live ? model.name(type === 'call_flow' ? 'flow' : type, id) : null;
      return name ? [`Goto(${name},s,1)`] : ['Hangup()'];
    }
    case 'external': {
      const valid = e164(number);
      return valid ? [external(model, valid)] : ['Hangup()'];
    }
    default:
      return ['Hangup()'];
  }
}

/** A forward's action: a number through the trunk, an extension, or the user's mailbox. */
function forwardAction(model: CompileModel, forward: SnapshotForward, greeting: 'u' | 'b'): string[] | null {
  if (forward.destinationType === 'number') {
    const number = e164(forward.destination);
    return number ? [external(model, number)] : null;
  }
  if (forward.destinationType === 'extension') {
    const digits = extensionNumber(forward.destination);
    return digits ? [`Goto(${model.context},${digits},1)`] : null;
  }
  const mailbox = model.mailboxOf(forward.userId);
  return mailbox ? [`VoiceMail(${mailbox},${greeting})`, 'Hangup()'] : null;
}

const MAX_HOPS = 8;
const DEFAULT_RING_SECONDS = 30;

/**
 * A direct call to an extension or a user: a hop counter (forwards that point at each other stop
 * after 8 hops instead of looping), DND, an unconditional forward, the ring (as long as a no-answer
 * forward's delay), then busy / unavailable / no-answer: a forward of that kind, the mailbox, or
 * the end. DND answers as busy does.
 */
function directCall(
  model: CompileModel,
  exten: Exten,
  userId: string | null,
  extension: SnapshotExtension | null,
  targets: string[],
  mailbox: string | null,
): string[] {
  const notes: string[] = [];
  exten.add(`Set(PBXAPI_HOPS=$[0\${PBXAPI_HOPS} + 1])`).add(`GotoIf($[\${PBXAPI_HOPS} > ${MAX_HOPS}]?loop)`);
  const forwards = new Map<string, SnapshotForward>();
  if (userId) {
    for (const rule of sortBy(
      model.dndsOf(userId).filter((d) => d.extensionId === null || d.extensionId === extension?.id),
      (d) => d.id,
    )) {
      const conditions = [rule.type === 'external' ? '"${PBXAPI_ORIGIN}" = "external"' : '"${PBXAPI_ORIGIN}" != "external"'];
      if (rule.callerIdentityId) {
        const identity = model.identities.get(rule.callerIdentityId);
        const number = identity ? e164(model.phoneNumbers.get(identity.phoneNumberId)?.number) : null;
        if (!number) {
          notes.push(`DND rule ${rule.id} names a caller identity without a number: ignored.`);
          continue;
        }
        conditions.push(`"\${PBXAPI_DID}" = "${number}"`);
      }
      exten.add(`GotoIf($[${conditions.join(' & ')}]?dnd)`);
    }
    for (const forward of sortBy(model.forwardsOf(userId), (f) => f.type)) if (!forwards.has(forward.type)) forwards.set(forward.type, forward);
  }
  const action = (type: SnapshotForward['type'], greeting: 'u' | 'b', otherwise: string[]): string[] => {
    const forward = forwards.get(type);
    if (forward) {
      const apps = forwardAction(model, forward, greeting);
      if (apps) return apps;
      notes.push(`The ${type.replace('_', ' ')} forward has an invalid destination: ignored.`);
    }
    return mailbox ? [`VoiceMail(${mailbox},${greeting})`, 'Hangup()'] : otherwise;
  };
  const unconditional = forwards.get('unconditional');
  const unconditionalApps = unconditional ? forwardAction(model, unconditional, 'u') : null;
  if (unconditional && !unconditionalApps) notes.push('The unconditional forward has an invalid destination: ignored.');
  if (unconditionalApps) {
    exten.addAll(unconditionalApps);
  } else {
    const noAnswer = forwards.get('no_answer');
    const seconds = noAnswer ? Math.max(1, noAnswer.delay) : DEFAULT_RING_SECONDS;
    if (targets.length) exten.add(`Dial(${targets.map(dialString).join('&')},${seconds})`);
    else exten.add('Goto(unavailable)');
    exten
      .add('GotoIf($["${DIALSTATUS}" = "BUSY"]?busy)')
      .add('GotoIf($["${DIALSTATUS}" = "CHANUNAVAIL" | "${DIALSTATUS}" = "CONGESTION"]?unavailable)')
      .addAll(action('no_answer', 'u', ['Hangup()']), 'noanswer')
      .addAll(action('busy', 'b', ['Busy(5)', 'Hangup()']), 'busy')
      .addAll(action('unavailable', 'u', ['Hangup()']), 'unavailable');
  }
  exten.addAll(action('busy', 'b', ['Busy(5)', 'Hangup()']), 'dnd');
  exten.addAll(['Hangup()'], 'loop');
  return unique(notes);
}

function mainContext(model: CompileModel): ConfigSection {
  const lines: ConfigLine[] = [{ key: 'include', value: `${model.context}-outbound`, object: true }];
  const notes: string[] = [];
  const seen = new Set<string>();
  for (const extension of sortBy(model.snapshot.extensions, (e) => e.number.padStart(16, '0'))) {
    const digits = extensionNumber(extension.number);
    if (!digits || seen.has(digits)) {
      notes.push(`Extension ${commentText(extension.number, 20)} is not a dialable number: left out.`);
      continue;
    }
    seen.add(digits);
    const exten = new Exten(digits);
    const targets = model.extensionTargets(extension);
    const mailbox = extension.voicemailEnabled ? `${digits}@${model.context}` : null;
    const user = extension.userId ? model.activeUser(extension.userId) : null;
    exten.add(`Set(__PBXAPI_ORIGIN=\${IF($["\${PBXAPI_ORIGIN}" = ""]?internal:\${PBXAPI_ORIGIN})})`);
    if (extension.userId && !user) {
      exten.add('Hangup()');
    } else notes.push(...directCall(model, exten, extension.userId, extension, targets, mailbox));
    lines.push(...exten.lines);
  }
  lines.push(...new Exten('*97').add('Answer()').add(`VoiceMailMain(\${CALLERID(num)}@${model.context})`).add('Hangup()').lines);
  return {
    name: model.context,
    comment: [`Tenant ${commentText(model.snapshot.pbx.name)}: its devices call from here.`, ...notes].join('\n'),
    lines,
  };
}

function inboundContext(model: CompileModel): ConfigSection {
  const lines: ConfigLine[] = [];
  const notes: string[] = [];
  const seen = new Set<string>();
  for (const number of sortBy(model.snapshot.phoneNumbers, (n) => n.number)) {
    const valid = e164(number.number);
    if (!valid || seen.has(valid)) {
      notes.push(`Phone number ${commentText(number.number, 24)} is not in E.164: left out.`);
      continue;
    }
    seen.add(valid);
    const exten = new Exten(valid).add('Set(__PBXAPI_ORIGIN=external)').add(`Set(__PBXAPI_DID=${valid})`);
    exten.addAll(number.destinationType === 'none' ? ['Hangup()'] : destination(model, number.destinationType, number.destinationId));
    lines.push(...exten.lines);
  }
  return { name: `${model.context}-inbound`, comment: ['Calls from the carrier to the phone numbers.', ...notes].join('\n'), lines };
}

/** The tenant's numbers reachable from the host's trunk context (empty without numbers). */
function carrierEntry(model: CompileModel): ConfigSection {
  const numbers = model.snapshot.phoneNumbers.some((number) => e164(number.number));
  return {
    name: CARRIER_CONTEXT,
    comment: "The host trunk's context (pjsip.conf: context = pbxapi-from-carrier): the tenant's numbers.",
    lines: numbers ? [{ key: 'include', value: `${model.context}-inbound`, object: true }] : [],
  };
}

/**
 * The way out: E.164 (`+…`) and international `00…` numbers through the trunk, presenting the
 * caller's identity (set on the endpoint) unless the call was placed through the API, whose
 * Originate already chose it (`PBXAPI_CALL_ID`); an anonymous call hides the number.
 */
function outboundContext(model: CompileModel): ConfigSection {
  const plus = new Exten('_+X.')
    .add('GotoIf($["${PBXAPI_CALL_ID}" != "" | "${PBXAPI_CID_NUM}" = ""]?dial)')
    .add('Set(CALLERID(num)=${PBXAPI_CID_NUM})')
    .add('Set(CALLERID(name)=${PBXAPI_CID_NAME})')
    .add('GotoIf($["${PBXAPI_ANONYMOUS}" != "1"]?out)', 'dial')
    .add('Set(CALLERID(pres)=prohib)')
    .add(`Goto(${ringExternalContext(model.prefix)},\${EXTEN},1)`, 'out');
  const international = new Exten('_00X.').add('Goto(+${EXTEN:2},1)');
  return {
    name: `${model.context}-outbound`,
    comment: 'Outgoing calls with the caller identity.',
    lines: [...plus.lines, ...international.lines],
  };
}

function userContexts(model: CompileModel): ConfigSection[] {
  return sortBy(
    model.snapshot.users.filter((u) => u.active),
    (u) => u.id,
  ).flatMap((user) => {
    const name = model.name('user', user.id);
    if (!name) return [];
    const exten = new Exten('s').add(`Set(__PBXAPI_ORIGIN=\${IF($["\${PBXAPI_ORIGIN}" = ""]?internal:\${PBXAPI_ORIGIN})})`);
    const notes = directCall(model, exten, user.id, null, model.userTargets(user.id), model.mailboxOf(user.id));
    return [{ name, comment: [`User ${model.userName(user)}`, ...notes].join('\n'), lines: exten.lines }];
  });
}

function twinningContext(model: CompileModel): ConfigSection {
  const lines: ConfigLine[] = [];
  for (const user of sortBy(model.snapshot.users, (u) => u.id)) {
    for (const twinning of model.twinningsOf(user.id)) {
      const exten = new Exten(compactId(twinning.id)!);
      if (twinning.delay > 0) exten.add(`Wait(${Math.min(twinning.delay, 300)})`);
      const legs = model.twinningDial(twinning);
      // VoIP first for 15 s when GSM follows; each further leg only when the one before failed.
      legs.forEach((leg, index) => exten.add(`Dial(${dialString(leg)}${index < legs.length - 1 ? ',15' : ''})`));
      exten.add('Hangup()');
      lines.push(...exten.lines);
    }
  }
  return { name: `${model.context}-twinning`, comment: 'Twinning legs: delay, then the FMC strategy.', lines };
}

/** Queue members' Local channels: `u<id>` rings the user's targets, `e<id>` the extension's. */
function agentsContext(model: CompileModel): ConfigSection {
  const lines: ConfigLine[] = [];
  const seen = new Set<string>();
  for (const queue of sortBy(model.snapshot.queues, (q) => q.id)) {
    for (const member of queue.members) {
      const agent = agentOf(model, member);
      if (!agent || seen.has(agent.exten)) continue;
      seen.add(agent.exten);
      const state = agentStateDevices(agent);
      if (state) lines.push({ key: 'exten', value: `${agent.exten},hint,${state.join('&')}`, object: true });
      lines.push(...new Exten(agent.exten).add(`Dial(${agent.targets.map(dialString).join('&')})`).add('Hangup()').lines);
    }
  }
  return { name: `${model.context}-agents`, comment: 'What each queue member rings.', lines };
}

/**
 * The devices whose state is a queue member's (the hint `hint:<agent>@t…-agents` combines them:
 * unavailable when none is registered, in use when one is), so app_queue's joinempty,
 * leavewhenempty and ringinuse see who can answer. A Local channel has no state of its own and
 * would always look "Not in use". A member reachable on a mobile twinning has none either: the
 * mobile can always be rung.
 */
export function agentStateDevices(agent: { targets: string[] }): string[] | null {
  return agent.targets.length > 0 && agent.targets.every((target) => target.startsWith('PJSIP/')) ? agent.targets : null;
}

/**
 * A queue member's agent extension and targets; null when it cannot take calls now. The name is
 * short (`u`/`e` and 20 hex digits of the id, 80 bits): app_queue keeps a member's interface in
 * 80 characters (AST_CHANNEL_NAME), and `Local/<exten>@t<32 hex>-agents/n` must fit.
 */
export function agentOf(model: CompileModel, member: SnapshotQueue['members'][number]): { exten: string; targets: string[] } | null {
  const hex = compactId(member.id)?.slice(0, 20);
  if (!hex) return null;
  if (member.type === 'user') {
    if (!model.activeUser(member.id) || model.routedDnd(member.id)) return null;
    const targets = model.userTargets(member.id);
    return targets.length ? { exten: `u${hex}`, targets } : null;
  }
  const extension = model.extensions.get(member.id);
  if (!extension || (extension.userId && (!model.activeUser(extension.userId) || model.routedDnd(extension.userId)))) return null;
  const targets = model.extensionTargets(extension);
  return targets.length ? { exten: `e${hex}`, targets } : null;
}

const DAYS = ['', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** ISO weekdays as GotoIfTime's day list: runs as ranges (`mon-fri`), others joined by `&`. */
function dayList(days: number[]): string {
  const sorted = unique(days.filter((d) => d >= 1 && d <= 7)).sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(
      j - i >= 2
        ? `${DAYS[sorted[i]]}-${DAYS[sorted[j]]}`
        : sorted
            .slice(i, j + 1)
            .map((d) => DAYS[d])
            .join('&'),
    );
    i = j + 1;
  }
  return parts.join('&');
}

/** `HH:MM` minus one minute: GotoIfTime's end minute is included (main/pbx_timing.c), the API's is not. */
function lastMinute(to: string): string {
  const [h, m] = to.split(':').map(Number);
  const minutes = h * 60 + m - 1;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/**
 * A call flow: one context, each node a labelled block (`node_<key>`), entered at the flow's
 * entry. Ring groups ring all members at once for the longest member time, or one after the other.
 */
function flowContext(model: CompileModel, flow: SnapshotCallFlow): ConfigSection[] {
  const name = model.name('flow', flow.id);
  if (!name) return [];
  const keys = new Set(flow.nodes.map((n) => n.key).filter((k) => nodeLabel(k)));
  const go = (key: string | null | undefined) => (key && keys.has(key) ? `Goto(${nodeLabel(key)})` : 'Hangup()');
  const exten = new Exten('s').add(go(flow.entry));
  for (const node of flow.nodes) {
    const label = nodeLabel(node.key);
    if (!label) continue;
    exten.addAll(nodeApps(model, node, go), label);
  }
  return [{ name, comment: `Call flow ${commentText(flow.name)}${flow.description ? `: ${commentText(flow.description)}` : ''}`, lines: exten.lines }];
}

function nodeApps(model: CompileModel, node: CallFlowNode, go: (key: string | null | undefined) => string): string[] {
  const ringable = (userId: string) => model.activeUser(userId) && !model.routedDnd(userId);
  switch (node.type) {
    case 'ring_user': {
      const targets = ringable(node.user_id) ? model.userTargets(node.user_id) : [];
      return [...(targets.length ? [`Dial(${targets.map(dialString).join('&')},${node.timeout_seconds})`] : []), go(node.no_answer)];
    }
    case 'ring_extension': {
      const extension = model.extensions.get(node.extension_id);
      const owner = extension?.userId;
      const targets = extension && (!owner || ringable(owner)) ? model.extensionTargets(extension) : [];
      return [...(targets.length ? [`Dial(${targets.map(dialString).join('&')},${node.timeout_seconds})`] : []), go(node.no_answer)];
    }
    case 'ring_group': {
      const members = node.members
        .map((m) => ({ seconds: m.timeout_seconds, targets: ringable(m.user_id) ? model.userTargets(m.user_id) : [] }))
        .filter((m) => m.targets.length);
      const dials =
        node.strategy === 'simultaneous'
          ? members.length
            ? [
                `Dial(${unique(members.flatMap((m) => m.targets))
                  .map(dialString)
                  .join('&')},${Math.max(...members.map((m) => m.seconds))})`,
              ]
            : []
          : members.map((m) => `Dial(${m.targets.map(dialString).join('&')},${m.seconds})`);
      return [...dials, go(node.no_answer)];
    }
    case 'queue':
      return destination(model, 'queue', node.queue_id);
    case 'ivr':
      return destination(model, 'ivr', node.ivr_id);
    case 'call_flow':
      return destination(model, 'call_flow', node.call_flow_id);
    case 'voicemail':
      return destination(model, 'voicemail', node.user_id);
    case 'forward':
      return destination(model, 'external', null, node.number);
    case 'play': {
      const sound = model.sound(node.sound_file_id);
      return [...(sound ? [`Playback(${sound})`] : []), go(node.next)];
    }
    case 'time_condition':
      return timeCondition(model, node, go);
    case 'hangup':
      return ['Hangup()'];
    default:
      return ['Hangup()'];
  }
}

/**
 * Holidays first (public ones of the node's country and, unless turned off, the tenant's; a half
 * day from the PBX's half-day split on), as explicit dates of the snapshot's two years in the PBX
 * zone, since GotoIfTime has no year; then the open hours with GotoIfTime in the PBX zone.
 */
function timeCondition(model: CompileModel, node: Extract<CallFlowNode, { type: 'time_condition' }>, go: (key: string | null | undefined) => string): string[] {
  const zone = timeZone(model.snapshot.pbx.timezone);
  const split = clockTime(model.snapshot.pbx.halfDaySplit) ?? '12:00';
  const days = new Map<string, boolean>();
  const add = (list: Array<{ date: string; halfDay: boolean }>) => {
    for (const day of list) {
      const date = isoDate(day.date);
      if (date) days.set(date, (days.get(date) ?? true) && day.halfDay);
    }
  };
  if (node.public_holidays_country) add(model.snapshot.holidays.public[node.public_holidays_country] ?? []);
  if (node.tenant_holidays !== false) add(model.snapshot.holidays.tenant);
  const holidayTarget = go(node.holiday ?? node.closed);
  const apps: string[] = [];
  if (days.size) {
    const tz = zone ?? '';
    apps.push(`Set(PBXAPI_TODAY=\${STRFTIME(\${EPOCH},${tz},%Y-%m-%d)})`, `Set(PBXAPI_NOW=\${STRFTIME(\${EPOCH},${tz},%H:%M)})`);
    const branch = holidayTarget.startsWith('Goto(') ? holidayTarget.slice(5, -1) : null;
    for (const [date, halfDay] of [...days].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const condition = halfDay ? `"\${PBXAPI_TODAY}" = "${date}" & "\${PBXAPI_NOW}" >= "${split}"` : `"\${PBXAPI_TODAY}" = "${date}"`;
      apps.push(branch ? `GotoIf($[${condition}]?${branch})` : `ExecIf($[${condition}]?Hangup())`);
    }
  }
  const open = go(node.open);
  const openBranch = open.startsWith('Goto(') ? open.slice(5, -1) : null;
  for (const range of node.open_hours) {
    const from = clockTime(range.from);
    const to = clockTime(range.to);
    const dayText = dayList(range.days);
    if (!from || !to || from === '24:00' || to <= from || !dayText) continue;
    const times = `${from}-${lastMinute(to)}`;
    if (openBranch) apps.push(`GotoIfTime(${times},${dayText},*,*${zone ? `,${zone}` : ''}?${openBranch})`);
    else apps.push(`ExecIfTime(${times},${dayText},*,*${zone ? `,${zone}` : ''}?Hangup())`);
  }
  apps.push(go(node.closed));
  return apps;
}

/**
 * An IVR menu: Background plays the announcement while listening for a key, WaitExten waits the
 * menu's timeout (with its music on hold, if any); each key is an extension of the context
 * (`0`-`9`, `*`, `#`), which sets the step's language before going on; `t` (timeout) and `i`
 * (invalid key) take the default action: hang up, play again up to `max_repeats` more times, or
 * the `default` step.
 */
function ivrContext(model: CompileModel, ivr: SnapshotIvr): ConfigSection[] {
  const name = model.name('ivr', ivr.id);
  if (!name) return [];
  const lines: ConfigLine[] = [];
  const start = new Exten('s').add('Answer()').add('Set(PBXAPI_IVR_PLAYS=0)');
  const lang = language(ivr.language);
  if (lang) start.add(`Set(CHANNEL(language)=${lang})`);
  const announcement = model.sound(ivr.announcementId);
  const moh = ivr.musicOnHoldId && model.sounds.get(ivr.musicOnHoldId)?.type === 'music' ? model.name('moh', ivr.musicOnHoldId) : null;
  start.add('Set(PBXAPI_IVR_PLAYS=$[${PBXAPI_IVR_PLAYS} + 1])', 'menu');
  if (announcement) start.add(`Background(${announcement})`);
  start.add(`WaitExten(${Math.max(1, ivr.timeoutSeconds)}${moh ? `,m(${moh})` : ''})`);
  lines.push(...start.lines);
  const stepApps = (step: SnapshotIvr['steps'][number]) => {
    const stepLang = language(step.language);
    return [
      ...(stepLang ? [`Set(CHANNEL(language)=${stepLang})`] : []),
      ...(step.target ? destination(model, step.target.type, step.target.id) : ['Hangup()']),
    ];
  };
  for (const step of sortBy(ivr.steps, (s) => s.option)) {
    if (!/^[0-9*#]$/.test(step.option)) continue;
    lines.push(...new Exten(step.option).addAll(stepApps(step)).lines);
  }
  const fallback = ivr.steps.find((s) => s.option === 'default');
  const otherwise =
    ivr.defaultAction === 'repeat'
      ? [`GotoIf($[\${PBXAPI_IVR_PLAYS} <= ${Math.max(0, ivr.maxRepeats)}]?s,menu)`, 'Hangup()']
      : ivr.defaultAction === 'default_step' && fallback
        ? stepApps(fallback)
        : ['Hangup()'];
  lines.push(...new Exten('t').addAll(otherwise).lines, ...new Exten('i').addAll(otherwise).lines);
  return [{ name, comment: `IVR ${commentText(ivr.name)}${ivr.comment ? `: ${commentText(ivr.comment)}` : ''}`, lines }];
}

/**
 * A queue: its announcement, then Queue() for at most the maximum wait; whatever brings the call
 * back (timeout, full, no member: QUEUESTATUS) goes to the overflow.
 */
function queueContext(model: CompileModel, queue: SnapshotQueue): ConfigSection[] {
  const name = model.name('queue', queue.id);
  if (!name) return [];
  const exten = new Exten('s').add('Answer()');
  const announcement = queue.announcementId && model.sounds.get(queue.announcementId)?.type === 'announcement' ? model.sound(queue.announcementId) : null;
  if (announcement) exten.add(`Playback(${announcement})`);
  exten.add(`Queue(${name},,,,${Math.max(1, queue.maxWaitSeconds)})`);
  exten.addAll(destination(model, queue.overflow.type, queue.overflow.id, queue.overflow.number));
  return [{ name, comment: `Queue ${commentText(queue.name)}`, lines: exten.lines }];
}
