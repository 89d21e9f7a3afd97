import { commentText, compactId, displayName, emailAddress, extensionNumber } from './escape.js';
import { agentOf, agentStateDevices } from './dialplan.js';
import { sortBy, type CompileModel } from './model.js';
import type { ConfigLine, ConfigSection } from './render.js';

/** The API's queue strategies as app_queue's (configs/samples/queues.conf.sample). */
const STRATEGIES: Record<string, string> = {
  ringall: 'ringall',
  round_robin: 'rrmemory',
  least_recent: 'leastrecent',
  fewest_calls: 'fewestcalls',
  random: 'random',
};

/**
 * queues.conf: one queue per routing queue. Members are Local channels into `[t…-agents]` (a user
 * rings all their devices), with the agent's hint as state interface (`agentStateDevices`) so
 * that a busy member is skipped (`ringinuse = no`) and an unregistered one counts as unavailable.
 * A queue nobody can answer is not joined or is left (`joinempty`/`leavewhenempty`): the dialplan
 * then sends the caller to the overflow, as the simulator says.
 */
export function compileQueues(model: CompileModel): ConfigSection[] {
  return sortBy(model.snapshot.queues, (q) => q.id).flatMap((queue) => {
    const name = model.name('queue', queue.id);
    if (!name) return [];
    const moh = queue.musicOnHoldId && model.sounds.get(queue.musicOnHoldId)?.type === 'music' ? model.name('moh', queue.musicOnHoldId) : null;
    const lines: ConfigLine[] = [
      { key: 'strategy', value: STRATEGIES[queue.strategy] ?? 'ringall' },
      { key: 'timeout', value: String(Math.max(1, queue.memberTimeoutSeconds)) },
      { key: 'retry', value: '5' },
      { key: 'wrapuptime', value: String(Math.max(0, queue.wrapUpSeconds)) },
      { key: 'maxlen', value: String(queue.maxCallers ?? 0) },
      { key: 'ringinuse', value: 'no' },
      { key: 'autofill', value: 'yes' },
      { key: 'joinempty', value: 'unavailable,invalid,unknown' },
      { key: 'leavewhenempty', value: 'unavailable,invalid,unknown' },
      ...(moh ? [{ key: 'musicclass', value: moh }] : []),
    ];
    const seen = new Set<string>();
    for (const member of queue.members) {
      const agent = agentOf(model, member);
      if (!agent || seen.has(agent.exten)) continue;
      seen.add(agent.exten);
      const state = agentStateDevices(agent) ? `hint:${agent.exten}@${model.context}-agents` : '';
      lines.push({
        key: 'member',
        value: `Local/${agent.exten}@${model.context}-agents/n,${Math.max(0, member.penalty)},,${state}`.replace(/,+$/, ''),
        object: true,
      });
    }
    return [{ name, comment: `Queue ${commentText(queue.name)}`, lines }];
  });
}

/**
 * voicemail.conf: a mailbox per extension with voicemail on, in the tenant's context
 * (`<number>@t…`): `number => password,full name,e-mail,,options` (configs/samples/voicemail.conf.sample).
 * The password is the user's voicemail PIN (sealed; a token until delivery); without one the
 * mailbox gets `nopin`, which no keypad can type, so it cannot be opened by phone until a PIN is
 * set. Name and address are checked so that no `,` or `|` adds a field or an option. The
 * `[general]` settings are the host's (app_voicemail reads the first `[general]` only, and several
 * tenants' files sit in one voicemail.conf).
 */
export function compileVoicemail(model: CompileModel): ConfigSection[] {
  const lines: ConfigLine[] = [];
  const seen = new Set<string>();
  for (const extension of sortBy(model.snapshot.extensions, (e) => e.number.padStart(16, '0'))) {
    const number = extensionNumber(extension.number);
    if (!extension.voicemailEnabled || !number || seen.has(number)) continue;
    const user = extension.userId ? model.activeUser(extension.userId) : null;
    if (extension.userId && !user) continue;
    seen.add(number);
    const pinSealed = user ? model.webrtc.get(user.id)?.voicemailPinSealed : null;
    const password = pinSealed ? model.seal(pinSealed, 'pin') : 'nopin';
    const name = displayName(user ? `${user.firstName} ${user.lastName}` : extension.name) || number;
    const email = user ? (emailAddress(user.email) ?? '') : '';
    const options = email ? `attach=yes|delete=${user?.voicemailDestination === 'email_only' ? 'yes' : 'no'}` : 'attach=no';
    lines.push({ key: number, value: `${password},${name},${email},,${options}`, object: true });
  }
  return lines.length ? [{ name: model.context, comment: `Mailboxes of ${commentText(model.snapshot.pbx.name)}`, lines }] : [];
}

/**
 * musiconhold.conf: one class per music sound file, `mode = files` with its own directory
 * relative to Asterisk's data directory (`astdatadir`, as the sample's default `directory = moh`):
 * `moh/pbxapi/<prefix>/<32 hex>`, wherever the host keeps its data (README, "Sound files").
 */
export function compileMusicOnHold(model: CompileModel): ConfigSection[] {
  return sortBy(
    model.snapshot.soundFiles.filter((s) => s.type === 'music'),
    (s) => s.id,
  ).flatMap((sound) => {
    const name = model.name('moh', sound.id);
    const hex = compactId(sound.id);
    if (!name || !hex) return [];
    return [
      {
        name,
        comment: `Music on hold: ${commentText(sound.name)}`,
        lines: [
          { key: 'mode', value: 'files' },
          { key: 'directory', value: model.musicDirectory(hex) },
        ],
      },
    ];
  });
}
