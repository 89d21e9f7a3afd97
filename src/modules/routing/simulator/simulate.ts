import type { Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { CallFlowNode } from '../call-flows/call-flow-nodes.js';
import type { FlowModel, RoutingGraph } from '../graph/model.js';
import type { RoutingProblem } from '../graph/validate.js';
import { evaluateTimeCondition, tenantHolidaysOn, type LocalInstant } from './time-condition.js';
import type { SimulateBody, SimulationStep } from './simulator.schemas.js';

type Step = Static<typeof SimulationStep>;
type Input = Static<typeof SimulateBody>;
type Answer = { type: string; id: string; name: string } | null;
export type SimulationResult = 'answered' | 'voicemail' | 'forwarded' | 'hung_up' | 'loop';

/** Where the call is: a node of a flow, or a resource entered from outside a flow. */
type Position =
  | { at: 'node'; flow: FlowModel; key: string }
  | { at: 'target'; type: string; id: string | null; number?: string | null; timeoutSeconds?: number; via: string }
  | { at: 'end'; result: SimulationResult; answeredBy?: Answer };

const MAX_STEPS = 100;
const DEFAULT_RING_SECONDS = 20;

/**
 * Follows a call through the tenant's routing as the PBX would, step by step, each with its
 * reason: numbers, flows, time conditions, IVR menus (keys pressed or timeouts), rings, queues and
 * their overflows. Nothing is dialled; the answer is what an admin reads before a change goes live.
 */
export class RouteSimulation {
  readonly steps: Step[] = [];
  readonly problems: RoutingProblem[] = [];
  private keyIndex = 0;
  private language: string | null = null;
  answeredBy: Answer = null;
  private ownHolidaysRead?: ReturnType<typeof tenantHolidaysOn>;
  /** The tenant's holidays on the simulated day, read once however many time conditions the call meets. */
  private readonly ownHolidays = () => (this.ownHolidaysRead ??= tenantHolidaysOn(this.db, this.tenant, this.local));

  constructor(
    private readonly db: Kysely<DB>,
    private readonly tenant: Tenant,
    private readonly graph: RoutingGraph,
    private readonly input: Input,
    private readonly local: LocalInstant,
  ) {}

  private step(step: Omit<Step, 'language' | 'node_key' | 'type' | 'id' | 'name'> & Partial<Step>): void {
    this.steps.push({ type: null, id: null, name: null, node_key: null, language: this.language, ...step });
  }

  private get nobodyAnswers(): boolean {
    return this.input.answer === 'nobody';
  }

  /** Runs from the number's destination to the end of the call. */
  async run(start: Position): Promise<SimulationResult> {
    let position = start;
    for (let count = 0; count < MAX_STEPS; count++) {
      if (position.at === 'end') {
        this.answeredBy = position.answeredBy ?? null;
        return position.result;
      }
      position = position.at === 'node' ? await this.node(position.flow, position.key) : this.target(position);
    }
    this.step({ kind: 'loop', outcome: 'stopped', reason: `The call was still being routed after ${MAX_STEPS} steps: it loops.` });
    return 'loop';
  }

  private next(flow: FlowModel, key: string | null | undefined, otherwise: string): Position {
    if (key) return { at: 'node', flow, key };
    this.step({ kind: 'hangup', outcome: 'hung_up', reason: otherwise });
    return { at: 'end', result: 'hung_up' };
  }

  private async node(flow: FlowModel, key: string): Promise<Position> {
    const node = flow.byKey.get(key);
    if (!node) {
      this.step({
        kind: 'hangup',
        type: 'call_flow',
        id: flow.id,
        name: flow.name,
        node_key: key,
        outcome: 'hung_up',
        reason: `Call flow "${flow.name}" has no node "${key}".`,
      });
      return { at: 'end', result: 'hung_up' };
    }
    const here = { type: 'call_flow', id: flow.id, name: flow.name, node_key: key };
    switch (node.type) {
      case 'time_condition': {
        const { branch, reason } = await evaluateTimeCondition(node, this.local, this.graph.halfDaySplit, this.ownHolidays);
        this.step({ kind: 'time_condition', ...here, outcome: branch, reason });
        const target = branch === 'open' ? node.open : branch === 'holiday' ? node.holiday : node.closed;
        return this.next(flow, target, `The ${branch} branch is empty: the call is hung up.`);
      }
      case 'play': {
        const name = this.graph.known.sound_file.get(node.sound_file_id)?.name ?? node.sound_file_id;
        this.step({ kind: 'play', ...here, outcome: 'played', reason: `Announcement "${name}" is played.` });
        return this.next(flow, node.next, 'Nothing follows the announcement: the call is hung up.');
      }
      case 'ring_user':
        return this.ringUser(node.user_id, node.timeout_seconds, () => this.next(flow, node.no_answer, 'No no_answer branch: the call is hung up.'), key, flow);
      case 'ring_extension':
        return this.ringExtension(
          node.extension_id,
          node.timeout_seconds,
          () => this.next(flow, node.no_answer, 'No no_answer branch: the call is hung up.'),
          key,
          flow,
        );
      case 'ring_group':
        return this.ringGroup(node, () => this.next(flow, node.no_answer, 'No no_answer branch: the call is hung up.'), flow);
      case 'queue':
        return { at: 'target', type: 'queue', id: node.queue_id, via: `node "${key}" of call flow "${flow.name}"` };
      case 'ivr':
        return { at: 'target', type: 'ivr', id: node.ivr_id, via: `node "${key}" of call flow "${flow.name}"` };
      case 'call_flow':
        return { at: 'target', type: 'call_flow', id: node.call_flow_id, via: `node "${key}" of call flow "${flow.name}"` };
      case 'voicemail':
        return { at: 'target', type: 'voicemail', id: node.user_id, via: `node "${key}" of call flow "${flow.name}"` };
      case 'forward':
        return { at: 'target', type: 'external', id: null, number: node.number, via: `node "${key}" of call flow "${flow.name}"` };
      case 'hangup':
        this.step({ kind: 'hangup', ...here, outcome: 'hung_up', reason: 'The flow hangs up here.' });
        return { at: 'end', result: 'hung_up' };
    }
  }

  /** A resource entered from a number, an IVR step, a queue overflow or a flow's node. */
  private target(position: Extract<Position, { at: 'target' }>): Position {
    const { type, id, via } = position;
    const missing = (kind: string, known?: { name: string; deleted: boolean }) => {
      const reason = known
        ? `The ${kind} "${known.name}" reached from ${via} is deleted: the call is hung up.`
        : `The ${kind} reached from ${via} does not exist: the call is hung up.`;
      this.step({ kind: 'hangup', type, id, name: known?.name ?? null, outcome: 'hung_up', reason });
      this.problems.push({ code: 'dangling', severity: 'error', path: `${type === 'call_flow' ? 'call_flows' : `${type}s`}/${id ?? ''}`, message: reason });
      return { at: 'end' as const, result: 'hung_up' as const };
    };
    switch (type) {
      case 'hangup':
        this.step({ kind: 'hangup', outcome: 'hung_up', reason: `${capitalise(via)} hangs up.` });
        return { at: 'end', result: 'hung_up' };
      case 'external':
        this.step({
          kind: 'forward',
          type: 'external',
          name: position.number ?? null,
          outcome: 'forwarded',
          reason: `Forwarded to ${position.number} by ${via}.`,
        });
        return { at: 'end', result: 'forwarded', answeredBy: { type: 'external', id: position.number ?? '', name: position.number ?? '' } };
      case 'call_flow': {
        const flow = id ? this.graph.flows.get(id) : undefined;
        if (!flow) return missing('call flow', id ? this.graph.known.call_flow.get(id) : undefined);
        this.step({
          kind: 'call_flow',
          type,
          id,
          name: flow.name,
          node_key: flow.entry,
          outcome: 'entered',
          reason: `Reached from ${via}; enters at node "${flow.entry}".`,
        });
        return { at: 'node', flow, key: flow.entry };
      }
      case 'ivr':
        return id && this.graph.ivrs.has(id) ? this.ivr(id, via) : missing('IVR', id ? this.graph.known.ivr.get(id) : undefined);
      case 'queue':
        return id && this.graph.queues.has(id) ? this.queue(id, via) : missing('queue', id ? this.graph.known.queue.get(id) : undefined);
      case 'user':
        return this.ringUser(id ?? '', position.timeoutSeconds ?? DEFAULT_RING_SECONDS, () =>
          this.end('No further routing after the user: the call is hung up.'),
        );
      case 'extension':
        return this.ringExtension(id ?? '', position.timeoutSeconds ?? DEFAULT_RING_SECONDS, () =>
          this.end('No further routing after the extension: the call is hung up.'),
        );
      case 'voicemail': {
        const user = id ? this.graph.users.get(id) : undefined;
        if (!user) return missing('user', id ? this.graph.known.user.get(id) : undefined);
        this.step({
          kind: 'voicemail',
          type: 'user',
          id,
          name: user.name,
          outcome: 'voicemail',
          reason: `The caller leaves a message in ${user.name}'s mailbox (from ${via}).`,
        });
        return { at: 'end', result: 'voicemail', answeredBy: { type: 'voicemail', id: id!, name: user.name } };
      }
      default:
        return this.end(`Unknown destination type ${type}: the call is hung up.`);
    }
  }

  private end(reason: string): Position {
    this.step({ kind: 'hangup', outcome: 'hung_up', reason });
    return { at: 'end', result: 'hung_up' };
  }

  /** Why a user cannot take the call now, or null. */
  private unavailable(userId: string): string | null {
    const user = this.graph.users.get(userId);
    if (!user) return this.graph.known.user.get(userId) ? 'is deleted' : 'does not exist';
    if (!user.active) return 'is disabled';
    if (user.dnd) return 'has do not disturb on';
    return null;
  }

  private ringUser(userId: string, seconds: number, onNoAnswer: () => Position, nodeKey?: string, flow?: FlowModel): Position {
    const name = this.graph.users.get(userId)?.name ?? this.graph.known.user.get(userId)?.name ?? null;
    const where = flow ? { node_key: nodeKey ?? null } : {};
    const why = this.unavailable(userId);
    if (why) {
      this.step({ kind: 'ring', type: 'user', id: userId, name, ...where, outcome: 'no_answer', reason: `${name ?? 'The user'} ${why}: not rung.` });
      return onNoAnswer();
    }
    if (this.nobodyAnswers) {
      this.step({ kind: 'ring', type: 'user', id: userId, name, ...where, outcome: 'no_answer', reason: `${name} does not answer within ${seconds} s.` });
      return onNoAnswer();
    }
    this.step({ kind: 'ring', type: 'user', id: userId, name, ...where, outcome: 'answered', reason: `${name} answers (rang up to ${seconds} s).` });
    return { at: 'end', result: 'answered', answeredBy: { type: 'user', id: userId, name: name ?? userId } };
  }

  private ringExtension(extensionId: string, seconds: number, onNoAnswer: () => Position, nodeKey?: string, flow?: FlowModel): Position {
    const extension = this.graph.extensions.get(extensionId);
    const where = flow ? { node_key: nodeKey ?? null } : {};
    if (!extension) {
      const known = this.graph.known.extension.get(extensionId);
      this.step({
        kind: 'ring',
        type: 'extension',
        id: extensionId,
        name: known?.name ?? null,
        ...where,
        outcome: 'no_answer',
        reason: `The extension ${known ? 'is deleted' : 'does not exist'}.`,
      });
      return onNoAnswer();
    }
    const name = `${extension.number} ${extension.name}`;
    const ownerWhy = extension.userId ? this.unavailable(extension.userId) : null;
    if (ownerWhy || this.nobodyAnswers) {
      const reason = ownerWhy ? `Its user ${ownerWhy}: not rung.` : `Nobody answers within ${seconds} s.`;
      this.step({ kind: 'ring', type: 'extension', id: extensionId, name, ...where, outcome: 'no_answer', reason: `Extension ${name}: ${reason}` });
      return onNoAnswer();
    }
    this.step({ kind: 'ring', type: 'extension', id: extensionId, name, ...where, outcome: 'answered', reason: `Extension ${name} answers.` });
    return { at: 'end', result: 'answered', answeredBy: { type: 'extension', id: extensionId, name } };
  }

  private ringGroup(node: Extract<CallFlowNode, { type: 'ring_group' }>, onNoAnswer: () => Position, flow: FlowModel): Position {
    const here = { type: 'ring_group', id: flow.id, name: node.label ?? node.key, node_key: node.key };
    const members = node.members.map((m) => ({ ...m, name: this.graph.users.get(m.user_id)?.name ?? m.user_id, why: this.unavailable(m.user_id) }));
    const skipped = members.filter((m) => m.why).map((m) => `${m.name} ${m.why}`);
    const ringable = members.filter((m) => !m.why);
    const skippedText = skipped.length ? ` Not rung: ${skipped.join('; ')}.` : '';
    if (ringable.length === 0 || this.nobodyAnswers) {
      const longest =
        node.strategy === 'simultaneous' ? Math.max(...ringable.map((m) => m.timeout_seconds), 0) : ringable.reduce((sum, m) => sum + m.timeout_seconds, 0);
      const reason =
        ringable.length === 0
          ? `No member can take calls.${skippedText}`
          : `${ringable.map((m) => m.name).join(', ')} ${node.strategy === 'simultaneous' ? 'ring at once' : 'ring one after the other'}; nobody answers (${longest} s).${skippedText}`;
      this.step({ kind: 'ring', ...here, outcome: 'no_answer', reason });
      return onNoAnswer();
    }
    const first = ringable[0];
    const how =
      node.strategy === 'simultaneous'
        ? `${ringable.map((m) => m.name).join(', ')} ring at once; ${first.name} answers first.`
        : `${first.name}, first in order, answers.`;
    this.step({ kind: 'ring', ...here, outcome: 'answered', reason: `${how}${skippedText}` });
    return { at: 'end', result: 'answered', answeredBy: { type: 'user', id: first.user_id, name: first.name } };
  }

  private ivr(id: string, via: string): Position {
    const ivr = this.graph.ivrs.get(id)!;
    if (ivr.language) this.language = ivr.language;
    const here = { type: 'ivr', id, name: ivr.name };
    const plays = ivr.defaultAction === 'repeat' ? ivr.maxRepeats + 1 : 1;
    for (let play = 1; play <= plays; play++) {
      const key = this.input.keys?.[this.keyIndex++] ?? null;
      const step = key === null ? undefined : ivr.steps.get(key);
      if (step) {
        if (step.language) this.language = step.language;
        this.step({
          kind: 'ivr',
          ...here,
          outcome: `key_${key}`,
          reason: `Menu played (from ${via}); the caller presses ${key}${step.name ? ` (${step.name})` : ''}.`,
        });
        return this.stepTarget(ivr.name, step);
      }
      const heard = key === null ? `no key within ${ivr.timeoutSeconds} s` : `key ${key}, which has no step`;
      if (ivr.defaultAction === 'repeat' && play < plays) {
        this.step({
          kind: 'ivr',
          ...here,
          outcome: key === null ? 'timeout' : 'invalid_key',
          reason: `Menu played (from ${via}); ${heard}: it is played again (${play} of ${plays}).`,
        });
        continue;
      }
      if (ivr.defaultAction === 'default_step') {
        const fallback = ivr.steps.get('default');
        this.step({
          kind: 'ivr',
          ...here,
          outcome: key === null ? 'timeout' : 'invalid_key',
          reason: `Menu played (from ${via}); ${heard}: the default step ${fallback ? 'takes the call' : 'is missing, so the call is hung up'}.`,
        });
        if (!fallback) return { at: 'end', result: 'hung_up' };
        if (fallback.language) this.language = fallback.language;
        return this.stepTarget(ivr.name, fallback);
      }
      const after = ivr.defaultAction === 'repeat' ? ` after ${plays} plays` : '';
      this.step({
        kind: 'ivr',
        ...here,
        outcome: key === null ? 'timeout' : 'invalid_key',
        reason: `Menu played (from ${via}); ${heard}${after}: the call is hung up.`,
      });
      return { at: 'end', result: 'hung_up' };
    }
    return { at: 'end', result: 'hung_up' };
  }

  private stepTarget(ivrName: string, step: { option: string; target: { type: 'call_flow' | 'ivr'; id: string } | null }): Position {
    if (!step.target) return this.end(`The step for ${step.option} of IVR "${ivrName}" has no valid target: the call is hung up.`);
    return { at: 'target', type: step.target.type, id: step.target.id, via: `key ${step.option} of IVR "${ivrName}"` };
  }

  private queue(id: string, via: string): Position {
    const queue = this.graph.queues.get(id)!;
    const here = { type: 'queue', id, name: queue.name };
    const overflow = (reason: string): Position => {
      this.step({ kind: 'queue', ...here, outcome: 'overflow', reason: `${reason} The overflow (${queue.overflow.type}) takes the call.` });
      return { at: 'target', type: queue.overflow.type, id: queue.overflow.id, number: queue.overflow.number, via: `the overflow of queue "${queue.name}"` };
    };
    if (this.input.queue_full && queue.maxCallers !== null) return overflow(`Queue full (${queue.maxCallers} callers waiting; from ${via}).`);
    const members = [...queue.members]
      .sort((a, b) => a.penalty - b.penalty)
      .map((m) => {
        if (m.type === 'extension') {
          const ext = this.graph.extensions.get(m.id);
          return { ...m, name: ext ? `${ext.number} ${ext.name}` : m.id, why: ext ? (ext.userId ? this.unavailable(ext.userId) : null) : 'is deleted' };
        }
        return { ...m, name: this.graph.users.get(m.id)?.name ?? m.id, why: this.unavailable(m.id) };
      });
    const ringable = members.filter((m) => !m.why);
    if (ringable.length === 0) {
      const who = members.length ? ` (${members.map((m) => `${m.name} ${m.why}`).join('; ')})` : '';
      return overflow(`No member can take calls${who}; from ${via}.`);
    }
    if (this.nobodyAnswers) return overflow(`Nobody answers within the maximum wait of ${queue.maxWaitSeconds} s (from ${via}).`);
    const first = ringable[0];
    const how =
      queue.strategy === 'ringall'
        ? `${ringable.map((m) => m.name).join(', ')} ring at once; ${first.name} answers.`
        : `Strategy ${queue.strategy} picks ${first.name} (lowest penalty first), who answers.`;
    this.step({ kind: 'queue', ...here, outcome: 'answered', reason: `Waits in the queue (from ${via}). ${how}` });
    return { at: 'end', result: 'answered', answeredBy: { type: first.type, id: first.id, name: first.name } };
  }
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
