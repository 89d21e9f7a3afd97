import type { CallFlowNode } from '../call-flows/call-flow-nodes.js';
import type { FlowModel, RoutingGraph } from '../graph/model.js';

/** What a box of the picture stands for; each kind has its shape and colour in Mermaid and DOT. */
export type DiagramNodeKind =
  | 'number'
  | 'contact'
  | 'time_condition'
  | 'play'
  | 'ring'
  | 'step'
  | 'ivr'
  | 'queue'
  | 'user'
  | 'extension'
  | 'device'
  | 'voicemail'
  | 'external'
  | 'hangup'
  | 'missing';

export interface DiagramNode {
  /** The graph's own name for it (`flow:{id}/{key}`, `ivr:{id}`, `user:{id}`, ...): never printed, so no id leaks into the picture. */
  key: string;
  kind: DiagramNodeKind;
  /** Lines of text, user input among them: the renderers escape them. */
  lines: string[];
  /** The call flow drawn around it, when it is one of a flow's nodes. */
  cluster: string | null;
  highlighted: boolean;
}

export interface DiagramEdge {
  from: string;
  to: string;
  label: string | null;
  /** Which way out of `from` this is (`open`, `key:1`, `default`, `no_answer`, `overflow`, `rings`, ...): how a simulated call's path is found on it. */
  via: string;
  highlighted: boolean;
}

export interface Diagram {
  title: string;
  nodes: DiagramNode[];
  edges: DiagramEdge[];
  /** The call flows drawn as frames, by key (`flow:{id}`). */
  clusters: Map<string, string>;
}

/** The devices a rung user or extension rings on, from the directory: live, enabled SIP devices and twinnings. */
export interface RungDevices {
  ofUser: Map<string, Array<{ key: string; lines: string[] }>>;
  ofExtension: Map<string, Array<{ key: string; lines: string[] }>>;
}

const WEEKDAYS = ['', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

function openHoursText(range: { days: number[]; from: string; to: string }): string {
  const days = [...range.days].sort((a, b) => a - b);
  const consecutive = days.length > 2 && days.every((day, i) => i === 0 || day === days[i - 1] + 1);
  return `${consecutive ? `${WEEKDAYS[days[0]]}–${WEEKDAYS[days.at(-1)!]}` : days.map((day) => WEEKDAYS[day]).join(', ')} ${range.from}–${range.to}`;
}

const KIND_OF_TARGET: Record<string, string> = {
  call_flow: 'call flow',
  ivr: 'IVR',
  queue: 'queue',
  user: 'user',
  voicemail: 'user',
  extension: 'extension',
};

/**
 * The picture of where calls go from one starting point (a phone number, a call flow, an IVR),
 * drawn from the routing graph the simulator walks and validation checks: each call flow as a
 * frame of its nodes, time conditions with their open, closed and holiday branches, IVR keys and
 * the default step, queues with their members and overflow, and the users, extensions and devices
 * that ring. Everything reachable from the start is drawn once; deleted or missing targets show as
 * such.
 */
export class DiagramBuilder {
  private readonly nodes = new Map<string, DiagramNode>();
  private readonly edges: DiagramEdge[] = [];
  private readonly clusters = new Map<string, string>();
  private readonly pending: Array<() => void> = [];
  /** Users and extensions that ring, in the order met: their devices are added by `addDevices`. */
  readonly rungUsers: string[] = [];
  readonly rungExtensions: string[] = [];

  constructor(private readonly graph: RoutingGraph) {}

  /** A phone number and where it leads. */
  number(number: { id: string; number: string; label: string | null; destination_type: string; destination_id: string | null }): string {
    const key = `number:${number.id}`;
    this.node(key, 'number', ['Phone number', number.number, ...(number.label ? [number.label] : [])]);
    this.edge(key, this.target(number.destination_type, number.destination_id), null, 'routes');
    return key;
  }

  /** A known caller's own routing (a contact's), which goes before the number's. */
  callerRoute(from: string, contact: { id: string; name: string }, type: string, id: string): string {
    const key = `contact:${contact.id}`;
    this.node(key, 'contact', ['Caller routed by contact', contact.name]);
    this.edge(from, key, 'known caller', 'caller');
    this.edge(key, this.target(type, id), null, 'routes');
    return key;
  }

  /** A call flow, IVR or queue as the start; null when it is not live. */
  start(type: 'call_flow' | 'ivr', id: string): string | null {
    if (type === 'call_flow' && !this.graph.flows.has(id)) return null;
    if (type === 'ivr' && !this.graph.ivrs.has(id)) return null;
    return this.target(type, id);
  }

  /** Draws what is still pending: everything reachable from the start. */
  complete(): void {
    for (let next = this.pending.shift(); next; next = this.pending.shift()) next();
  }

  /** The picture, with the devices of the users and extensions that ring. */
  finish(title: string, devices?: RungDevices): Diagram {
    this.complete();
    if (devices) {
      const add = (owner: string, list: Array<{ key: string; lines: string[] }> | undefined) => {
        for (const device of list ?? []) {
          this.node(device.key, 'device', device.lines);
          this.edge(owner, device.key, null, 'device');
        }
      };
      for (const user of this.rungUsers) add(`user:${user}`, devices.ofUser.get(user));
      for (const extension of this.rungExtensions) add(`extension:${extension}`, devices.ofExtension.get(extension));
    }
    return { title, nodes: [...this.nodes.values()], edges: this.edges, clusters: this.clusters };
  }

  private node(key: string, kind: DiagramNodeKind, lines: string[], cluster: string | null = null): boolean {
    if (this.nodes.has(key)) return false;
    this.nodes.set(key, { key, kind, lines: lines.map(oneLine), cluster, highlighted: false });
    return true;
  }

  private edge(from: string, to: string, label: string | null, via: string): void {
    this.edges.push({ from, to, label: label === null ? null : oneLine(label), via, highlighted: false });
  }

  private hangup(): string {
    this.node('hangup', 'hangup', ['Hang up']);
    return 'hangup';
  }

  private missing(type: string, id: string | null): string {
    const kind = KIND_OF_TARGET[type] ?? type.replace('_', ' ');
    const known = id ? this.graph.known[(type === 'voicemail' ? 'user' : type) as keyof RoutingGraph['known']]?.get(id) : undefined;
    const key = `missing:${type}:${id ?? ''}`;
    this.node(key, 'missing', known ? [`Deleted ${kind}`, known.name] : [`Missing ${kind}`]);
    return key;
  }

  /** The box a call goes to for a destination: created (and its onward routing queued) when first met. */
  private target(type: string, id: string | null, number?: string | null): string {
    switch (type) {
      case 'none':
      case 'hangup':
        return this.hangup();
      case 'external': {
        const key = `external:${number ?? ''}`;
        this.node(key, 'external', ['External number', number ?? '']);
        return key;
      }
      case 'call_flow': {
        const flow = id ? this.graph.flows.get(id) : undefined;
        if (!flow || !flow.byKey.has(flow.entry)) return this.missing(type, id);
        this.flow(flow);
        return `flow:${flow.id}/${flow.entry}`;
      }
      case 'ivr':
        return id && this.graph.ivrs.has(id) ? this.ivr(id) : this.missing(type, id);
      case 'queue':
        return id && this.graph.queues.has(id) ? this.queue(id) : this.missing(type, id);
      case 'user':
        return id && this.graph.users.has(id) ? this.user(id) : this.missing(type, id);
      case 'extension':
        return id && this.graph.extensions.has(id) ? this.extension(id) : this.missing(type, id);
      case 'voicemail': {
        const user = id ? this.graph.users.get(id) : undefined;
        if (!user) return this.missing(type, id);
        const key = `voicemail:${id}`;
        this.node(key, 'voicemail', ['Voicemail', user.name]);
        return key;
      }
      default:
        return this.missing(type, id);
    }
  }

  private flow(flow: FlowModel): void {
    const cluster = `flow:${flow.id}`;
    if (this.clusters.has(cluster)) return;
    this.clusters.set(cluster, `Call flow: ${oneLine(flow.name)}`);
    for (const node of flow.nodes) this.node(`${cluster}/${node.key}`, flowNodeKind(node), this.flowNodeLines(node), cluster);
    this.pending.push(() => {
      for (const node of flow.nodes) this.flowNodeEdges(flow, node);
    });
  }

  private flowNodeLines(node: CallFlowNode): string[] {
    const name = node.label ? `${node.label} (${node.key})` : node.key;
    const sound = (id: string) => this.graph.known.sound_file.get(id)?.name ?? 'missing sound file';
    switch (node.type) {
      case 'time_condition': {
        const holidays = [node.public_holidays_country, node.tenant_holidays !== false ? "the PBX's" : null].filter(Boolean).join(' and ');
        return [`Time condition: ${name}`, `open ${node.open_hours.map(openHoursText).join(', ')}`, ...(holidays ? [`holidays: ${holidays}`] : [])];
      }
      case 'play':
        return [`Play: ${name}`, sound(node.sound_file_id)];
      case 'ring_user':
      case 'ring_extension':
        return [`Ring: ${name}`, `${node.timeout_seconds ?? 20} s`];
      case 'ring_group':
        return [`Ring group: ${name}`, node.strategy];
      case 'queue':
        return [`Queue: ${name}`];
      case 'ivr':
        return [`Menu: ${name}`];
      case 'call_flow':
        return [`Go to call flow: ${name}`];
      case 'voicemail':
        return [`Voicemail: ${name}`];
      case 'forward':
        return [`Forward: ${name}`];
      case 'hangup':
        return [`Hang up: ${name}`];
    }
  }

  private flowNodeEdges(flow: FlowModel, node: CallFlowNode): void {
    const from = `flow:${flow.id}/${node.key}`;
    const exit = (key: string | null | undefined) => (key && flow.byKey.has(key) ? `flow:${flow.id}/${key}` : this.hangup());
    switch (node.type) {
      case 'time_condition':
        this.edge(from, exit(node.open), 'open', 'open');
        this.edge(from, exit(node.closed), node.holiday ? 'closed' : 'closed or holiday', 'closed');
        if (node.holiday) this.edge(from, exit(node.holiday), 'holiday', 'holiday');
        return;
      case 'play':
        this.edge(from, exit(node.next), null, 'next');
        return;
      case 'ring_user':
        this.edge(from, this.target('user', node.user_id), 'rings', 'rings');
        this.edge(from, exit(node.no_answer), 'no answer', 'no_answer');
        return;
      case 'ring_extension':
        this.edge(from, this.target('extension', node.extension_id), 'rings', 'rings');
        this.edge(from, exit(node.no_answer), 'no answer', 'no_answer');
        return;
      case 'ring_group':
        for (const member of node.members) this.edge(from, this.target('user', member.user_id), `rings ${member.timeout_seconds ?? 20} s`, 'rings');
        this.edge(from, exit(node.no_answer), 'no answer', 'no_answer');
        return;
      case 'queue':
        this.edge(from, this.target('queue', node.queue_id), null, 'jump');
        return;
      case 'ivr':
        this.edge(from, this.target('ivr', node.ivr_id), null, 'jump');
        return;
      case 'call_flow':
        this.edge(from, this.target('call_flow', node.call_flow_id), null, 'jump');
        return;
      case 'voicemail':
        this.edge(from, this.target('voicemail', node.user_id), null, 'jump');
        return;
      case 'forward':
        this.edge(from, this.target('external', null, node.number), null, 'jump');
        return;
      case 'hangup':
        return;
    }
  }

  private ivr(id: string): string {
    const key = `ivr:${id}`;
    const ivr = this.graph.ivrs.get(id)!;
    if (!this.node(key, 'ivr', ['IVR menu', ivr.name, `waits ${ivr.timeoutSeconds} s for a key`])) return key;
    this.pending.push(() => {
      const options = [...ivr.steps.values()].filter((step) => step.option !== 'default').sort((a, b) => optionOrder(a.option) - optionOrder(b.option));
      for (const step of options) {
        const to = step.target ? this.target(step.target.type, step.target.id) : this.missing('step target', step.id);
        this.edge(key, to, `${step.option}${step.name ? ` ${step.name}` : ''}`, `key:${step.option}`);
      }
      const fallback = ivr.steps.get('default');
      if (ivr.defaultAction === 'default_step' && fallback) {
        const to = fallback.target ? this.target(fallback.target.type, fallback.target.id) : this.missing('step target', fallback.id);
        this.edge(key, to, `no key: default step${fallback.name ? ` ${fallback.name}` : ''}`, 'default');
      } else {
        const label =
          ivr.defaultAction === 'repeat'
            ? `no key: repeated ${ivr.maxRepeats}×, then hang up`
            : ivr.defaultAction === 'default_step'
              ? 'no key: default step missing'
              : 'no key';
        this.edge(key, this.hangup(), label, 'default');
      }
    });
    return key;
  }

  private queue(id: string): string {
    const key = `queue:${id}`;
    const queue = this.graph.queues.get(id)!;
    const limits = [queue.strategy, `max wait ${queue.maxWaitSeconds} s`, ...(queue.maxCallers !== null ? [`max ${queue.maxCallers} callers`] : [])];
    if (!this.node(key, 'queue', ['Queue', queue.name, limits.join(', ')])) return key;
    this.pending.push(() => {
      for (const member of queue.members) this.edge(key, this.target(member.type, member.id), `member, penalty ${member.penalty}`, 'member');
      this.edge(key, this.target(queue.overflow.type, queue.overflow.id, queue.overflow.number), 'overflow', 'overflow');
    });
    return key;
  }

  private user(id: string): string {
    const key = `user:${id}`;
    const user = this.graph.users.get(id)!;
    const state = !user.active ? ['disabled: not rung'] : user.dnd ? ['do not disturb: not rung'] : [];
    if (this.node(key, 'user', ['User', user.name, ...state])) this.rungUsers.push(id);
    return key;
  }

  private extension(id: string): string {
    const key = `extension:${id}`;
    const extension = this.graph.extensions.get(id)!;
    if (this.node(key, 'extension', ['Extension', `${extension.number} ${extension.name}`.trim()])) this.rungExtensions.push(id);
    return key;
  }
}

function flowNodeKind(node: CallFlowNode): DiagramNodeKind {
  switch (node.type) {
    case 'time_condition':
      return 'time_condition';
    case 'play':
      return 'play';
    case 'ring_user':
    case 'ring_extension':
    case 'ring_group':
      return 'ring';
    case 'hangup':
      return 'hangup';
    default:
      return 'step';
  }
}

/** Keys in the order of a phone's keypad: 1-9, 0, *, #. */
function optionOrder(option: string): number {
  const order = '1234567890*#'.indexOf(option);
  return order === -1 ? 99 : order;
}

/** User input on one line: a newline or tab in a name would break the picture's own lines. */
function oneLine(text: string): string {
  return text.replace(/[\s\u0085\u2028\u2029]+/g, ' ').trim();
}
