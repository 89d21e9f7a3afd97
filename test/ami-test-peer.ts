/**
 * A protocol-level AMI peer for tests: a real TCP server speaking the Asterisk Manager framing
 * (banner, Login, Ping, Command with multi-line output, Originate with its OriginateResponse,
 * Newchannel, Hangup and Cdr events), with switches for failures: silence, errors, a dropped
 * connection in the middle of an action.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { AmiMessage, AmiParser, type AmiFields } from '../src/modules/calls/engine/ami/protocol.js';

export interface PeerBehaviour {
  /**
   * What Originate does: answer and emit the call's events, refuse it, say nothing, drop the
   * connection, or (`fail`, as Asterisk 22 does for a channel it cannot create) queue it and send
   * `OriginateResponse: Failure / Reason: 0` at once, on the same connection, then nothing else.
   */
  originate: 'success' | 'error' | 'silent' | 'disconnect' | 'fail';
  /** Answer Command in the legacy `Response: Follows` form instead of `Output:` lines. */
  legacyCommand: boolean;
  /** Emit the call's Cdr event after Hangup. */
  emitCdr: boolean;
  /** Send no banner at all (a port that is not AMI). */
  noBanner: boolean;
  /** Disposition of the Cdr event. */
  disposition: 'ANSWERED' | 'NO ANSWER' | 'BUSY';
  /** Cdr times as cdr_manager writes them: the host's local time (here fixed, as a host in that zone would write them). */
  cdrTimes: { start: string; answer: string; end: string };
  /** Add `LinkedID` to Cdr events (cdr_manager.conf `[mappings]` `linkedid => LinkedID`). */
  linkedId: boolean;
}

/** An AMI user's classes (manager.conf `read =` and `write =`). */
export interface PeerPermissions {
  read: string[];
  write: string[];
}

const ALL: PeerPermissions = { read: ['all'], write: ['all'] };
/** The write class each action needs (as Asterisk registers them), and the read class of each event. */
/** The write class each action needs (its `Priv:` in Asterisk 22's ListCommands; Reload takes system or config). */
const WRITE_CLASS: Record<string, string> = {
  originate: 'originate',
  command: 'command',
  createconfig: 'config',
  updateconfig: 'config',
  showdialplan: 'config',
  reload: 'config',
  moduleload: 'system',
  pjsipshowendpoints: 'system',
};
const READ_CLASS: Record<string, string> = { newchannel: 'call', hangup: 'call', originateresponse: 'call', cdr: 'cdr' };

export class AmiTestPeer {
  readonly users = new Map<string, string>([['admin', 's3cr3t-ami']]);
  readonly received: AmiMessage[] = [];
  readonly sockets = new Set<Socket>();
  /** Classes of the AMI users; a user not listed has all. */
  readonly permissions = new Map<string, PeerPermissions>();
  behaviour: PeerBehaviour = {
    originate: 'success',
    legacyCommand: false,
    emitCdr: true,
    noBanner: false,
    disposition: 'ANSWERED',
    cdrTimes: { start: '2026-01-15 09:00:00', answer: '2026-01-15 09:00:07', end: '2026-01-15 09:01:07' },
    linkedId: false,
  };
  logins = 0;
  /** Connections accepted, so a test can tell that nothing connected at all. */
  accepted = 0;
  private server: Server | null = null;
  private sequence = 100;
  port = 0;
  /** Configuration files as UpdateConfig left them (see config-delivery.ts), by file name. */
  readonly configFiles = new Map<string, PeerCategory[]>();
  /** Modules a Reload may name; a failure switch per configuration action. */
  readonly modules = new Set(['pbx_config.so', 'res_pjsip.so', 'app_queue.so', 'app_voicemail.so', 'res_musiconhold.so']);
  configBehaviour: ConfigBehaviour = { createConfig: 'success', updateConfigRefuses: null, reloadRefuses: null, silentOn: null };
  /** Modules reloaded, in order. */
  readonly reloads: string[] = [];
  /**
   * Modules that declined to load at start (app_queue without queues.conf): Reload answers "Module
   * not initialized"; ModuleLoad loads them unless listed in `unloadable`.
   */
  readonly declined = new Set<string>();
  readonly unloadable = new Set<string>();
  /** The host files' include lines (`#tryinclude "pbxapi-<type>-*.conf"`): the types the host reads. */
  readonly hostIncludes = new Set(['extensions', 'pjsip', 'queues', 'voicemail', 'musiconhold']);
  /** What each module read at its last reload: the categories of the tenant files the host includes. */
  readonly running = new Map<string, PeerCategory[]>();

  async start(): Promise<number> {
    this.server = createServer((socket) => this.accept(socket));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this.port;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Drops every open connection (the PBX restarting). */
  dropAll(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  /** Sends an event to every logged-in connection whose user may read its class. */
  broadcast(fields: AmiFields): void {
    const event = fields.find(([key]) => key === 'Event')?.[1].toLowerCase() ?? '';
    for (const socket of this.sockets as Set<PeerSocket>) {
      if (!socket.user) continue;
      const { read } = this.permissionsOf(socket.user);
      const wanted = READ_CLASS[event];
      if (!wanted || read.includes('all') || read.includes(wanted)) write(socket, fields);
    }
  }

  private permissionsOf(user: string): PeerPermissions {
    return this.permissions.get(user) ?? ALL;
  }

  actions(name: string): AmiMessage[] {
    return this.received.filter((message) => message.get('Action')?.toLowerCase() === name.toLowerCase());
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    this.accepted++;
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.setEncoding('utf8');
    if (!this.behaviour.noBanner) socket.write('Asterisk Call Manager/9.0.0\r\n');
    else socket.write('SSH-2.0-OpenSSH_9.6\r\n');
    // The peer parses what the client sends; a fake banner line starts the parser.
    const parser = new AmiParser(
      () => undefined,
      (message) => this.handle(socket, message),
    );
    parser.push('client\r\n');
    socket.on('data', (chunk: string) => parser.push(chunk));
  }

  private handle(socket: PeerSocket, message: AmiMessage): void {
    this.received.push(message);
    const action = message.get('Action')?.toLowerCase();
    const actionId = message.get('ActionID') ?? '';
    const reply = (fields: AmiFields) => write(socket, [...fields.slice(0, 1), ['ActionID', actionId], ...fields.slice(1)]);
    if (action === 'login') {
      if (this.users.get(message.get('Username') ?? '') === message.get('Secret')) {
        socket.user = message.get('Username');
        this.logins++;
        reply([
          ['Response', 'Success'],
          ['Message', 'Authentication accepted'],
        ]);
      } else {
        reply([
          ['Response', 'Error'],
          ['Message', 'Authentication failed'],
        ]);
      }
      return;
    }
    if (!socket.user)
      return reply([
        ['Response', 'Error'],
        ['Message', 'Permission denied'],
      ]);
    const { write: writable } = this.permissionsOf(socket.user);
    const needs = WRITE_CLASS[action ?? ''];
    if (needs && !writable.includes('all') && !writable.includes(needs)) {
      return reply([
        ['Response', 'Error'],
        ['Message', 'Permission denied'],
      ]);
    }
    switch (action) {
      case 'listcommands': {
        // Only the actions the user may send, as Asterisk lists them.
        const listed: AmiFields = [
          ['Ping', 'Keepalive command. (Priv: <none>)'],
          ['Logoff', 'Logoff Manager. (Priv: <none>)'],
        ];
        for (const [name, cls] of [
          ['Originate', 'originate'],
          ['Command', 'command'],
          ['UpdateConfig', 'config'],
          ['ModuleLoad', 'system'],
        ]) {
          if (writable.includes('all') || writable.includes(cls)) listed.push([name, `Execute. (Priv: ${cls},all)`]);
        }
        return reply([['Response', 'Success'], ...listed]);
      }
      case 'ping':
        return reply([
          ['Response', 'Success'],
          ['Ping', 'Pong'],
          ['Timestamp', '1768467600.000000'],
        ]);
      case 'logoff':
        reply([
          ['Response', 'Goodbye'],
          ['Message', 'Thanks for all the fish.'],
        ]);
        socket.end();
        return;
      case 'command':
        if (/^manager show user /i.test(message.get('Command') ?? '')) {
          const name = (message.get('Command') ?? '').replace(/^manager show user /i, '').trim();
          const classes = (list: string[]) =>
            list.includes('all')
              ? 'system,call,log,verbose,command,agent,user,config,dtmf,reporting,cdr,dialplan,originate,agi,cc,aoc,test,security,message'
              : list.join(',') || '<none>';
          const perms = this.users.has(name) ? this.permissionsOf(name) : null;
          return reply([
            ['Response', 'Success'],
            ['Message', 'Command output follows'],
            ...(perms
              ? ([
                  ['Output', ''],
                  ['Output', `          username: ${name}`],
                  ['Output', `         read perm: ${classes(perms.read)}`],
                  ['Output', `        write perm: ${classes(perms.write)}`],
                ] as AmiFields)
              : ([['Output', `There is no manager called ${name}`]] as AmiFields)),
          ]);
        }
        if (this.behaviour.legacyCommand) {
          socket.write(
            `Response: Follows\r\nActionID: ${actionId}\r\nPrivilege: Command\r\nAsterisk 18.20.0 built by root @ pbx on a x86_64 running Linux\r\n\r\nsecond line: with a colon\r\n--END COMMAND--\r\n\r\n`,
          );
          return;
        }
        return reply([
          ['Response', 'Success'],
          ['Message', 'Command output follows'],
          ['Output', 'Asterisk 20.5.0 built by root @ pbx on a x86_64 running Linux'],
          ['Output', 'second line: with a colon'],
        ]);
      case 'coreshowchannels':
        reply([
          ['Response', 'Success'],
          ['EventList', 'start'],
          ['Message', 'Channels will follow'],
        ]);
        write(socket, [
          ['Event', 'CoreShowChannel'],
          ['ActionID', actionId],
          ['Channel', 'PJSIP/alice-00000001'],
        ]);
        write(socket, [
          ['Event', 'CoreShowChannel'],
          ['ActionID', actionId],
          ['Channel', 'PJSIP/bob-00000002'],
        ]);
        write(socket, [
          ['Event', 'CoreShowChannelsComplete'],
          ['ActionID', actionId],
          ['EventList', 'Complete'],
          ['ListItems', '2'],
        ]);
        return;
      case 'originate':
        return this.originate(socket, message, reply);
      case 'createconfig':
      case 'updateconfig':
      case 'reload':
      case 'moduleload':
        return this.configAction(action, message, reply);
      case 'showdialplan':
      case 'pjsipshowendpoints':
      case 'queuesummary':
        return this.listLoaded(socket, action, message, reply);
      default:
        return reply([
          ['Response', 'Error'],
          ['Message', 'Invalid/unknown command'],
        ]);
    }
  }

  /** A module (re)loaded reads every tenant file its host file includes, as `#tryinclude "pbxapi-<type>-*.conf"` does. */
  private readFiles(module: string): void {
    const type = MODULE_TYPES[module];
    if (!type) return;
    const pattern = new RegExp(`^pbxapi-${type}-[^.]+\\.conf$`);
    const read = this.hostIncludes.has(type) ? [...this.configFiles].filter(([name]) => pattern.test(name)).flatMap(([, categories]) => categories) : [];
    this.running.set(module, read);
  }

  /** ShowDialPlan (one context), PJSIPShowEndpoints and QueueSummary over what the modules read. */
  private listLoaded(socket: PeerSocket, action: string, message: AmiMessage, reply: (fields: AmiFields) => void): void {
    const actionId = message.get('ActionID') ?? '';
    const list = (items: AmiFields[], complete: string) => {
      reply([
        ['Response', 'Success'],
        ['EventList', 'start'],
        ['Message', 'list will follow'],
      ]);
      for (const item of items) write(socket, [...item.slice(0, 1), ['ActionID', actionId], ...item.slice(1)]);
      write(socket, [
        ['Event', complete],
        ['ActionID', actionId],
        ['EventList', 'Complete'],
        ['ListItems', String(items.length)],
      ]);
    };
    const running = (module: string) => this.running.get(module) ?? [];
    if (action === 'showdialplan') {
      const context = message.get('Context') ?? '';
      const category = running('pbx_config.so').find((c) => c.name === context);
      if (!category)
        return reply([
          ['Response', 'Error'],
          ['Message', `Did not find context ${context}`],
        ]);
      return list(
        [
          [
            ['Event', 'ListDialplan'],
            ['Context', context],
          ],
        ],
        'ShowDialPlanComplete',
      );
    }
    if (action === 'pjsipshowendpoints') {
      const endpoints = running('res_pjsip.so').filter((c) => c.lines.some((line) => line.key === 'type' && line.value === 'endpoint'));
      if (!endpoints.length)
        return reply([
          ['Response', 'Error'],
          ['Message', 'No endpoints found'],
        ]);
      return list(
        endpoints.map((c) => [
          ['Event', 'EndpointList'],
          ['ObjectType', 'endpoint'],
          ['ObjectName', c.name],
        ]),
        'EndpointListComplete',
      );
    }
    return list(
      running('app_queue.so').map((c) => [
        ['Event', 'QueueSummary'],
        ['Queue', c.name],
      ]),
      'QueueSummaryComplete',
    );
  }

  /** CreateConfig, UpdateConfig (NewCat, Append, RenameCat, DelCat), Reload and ModuleLoad, as main/manager.c answers them. */
  private configAction(action: string, message: AmiMessage, reply: (fields: AmiFields) => void): void {
    const error = (text: string) =>
      reply([
        ['Response', 'Error'],
        ['Message', text],
      ]);
    if (this.configBehaviour.silentOn === action) return;
    // Asterisk reads 128 headers of a message and drops the rest: an action past that would lose edits.
    if (message.fields.length > 128) return error(`Too many headers (${message.fields.length})`);
    if (action === 'createconfig') {
      const name = message.get('Filename') ?? '';
      if (!name) return error('Filename not specified');
      if (this.configBehaviour.createConfig === 'error') return error('Permission denied');
      if (this.configFiles.has(name)) return error('File exists');
      this.configFiles.set(name, []);
      return reply([
        ['Response', 'Success'],
        ['Message', 'New configuration file created successfully'],
      ]);
    }
    if (action === 'reload') {
      const module = message.get('Module') ?? '';
      if (!this.modules.has(module)) return error('No such module');
      if (this.declined.has(module)) return error('Module not initialized');
      if (this.configBehaviour.reloadRefuses === module) return error('Module does not support reload');
      this.reloads.push(module);
      this.readFiles(module);
      return reply([
        ['Response', 'Success'],
        ['Message', 'Module Reloaded'],
      ]);
    }
    if (action === 'moduleload') {
      const module = message.get('Module') ?? '';
      if (message.get('LoadType')?.toLowerCase() !== 'load') return error('Incorrect value for LoadType');
      if (!this.modules.has(module) || this.unloadable.has(module)) return error('Could not load module.');
      this.declined.delete(module);
      this.reloads.push(module);
      this.readFiles(module);
      return reply([
        ['Response', 'Success'],
        ['Message', 'Module loaded.'],
      ]);
    }
    const source = message.get('SrcFilename') ?? '';
    const destination = message.get('DstFilename') ?? '';
    if (!source || !destination) return error('Filename not specified');
    // is_restricted_file() canonicalises both names with realpath(), which fails for a file that does not exist.
    if (!this.configFiles.has(source) || !this.configFiles.has(destination)) return error('File requires escalated privileges');
    const loaded = this.configFiles.get(source)!;
    if (this.configBehaviour.updateConfigRefuses === destination) return error('Given category does not exist');
    const categories = loaded.map((category) => ({ ...category, inherits: [...category.inherits], lines: [...category.lines] }));
    for (let x = 0; ; x++) {
      const n = String(x).padStart(6, '0');
      const edit = message.get(`Action-${n}`)?.toLowerCase();
      if (!edit) break;
      const cat = message.get(`Cat-${n}`) ?? '';
      if (!cat) return error('Category not specified');
      const value = message.get(`Value-${n}`) ?? '';
      // Without a TEMPLATES= filter (which action_updateconfig cannot pass) a template never matches.
      const matching = categories.filter((category) => category.name === cat && !category.template);
      const named = categories.some((category) => category.name === cat);
      if (edit === 'newcat') {
        // Split on commas outside quotes, then strip the quotes, as ast_strsep(..., AST_STRSEP_STRIP) does.
        const options = (message.get(`Options-${n}`) ?? '').match(/(?:[^,"]|"[^"]*")+/g)?.map((option) => option.trim().replace(/"/g, '')) ?? [];
        if (named && !options.includes('allowdups')) return error('Create category did not complete successfully');
        const inherit = options.find((option) => option.startsWith('inherit='));
        const inherits = inherit ? inherit.slice('inherit='.length).split(',') : [];
        const rest = options.filter((option) => !option.startsWith('inherit='));
        for (const name of inherits)
          if (!categories.some((category) => category.name === name && category.template)) return error('Template category not found');
        categories.push({ name: cat, template: rest.includes('template'), inherits, lines: [] });
      } else if (edit === 'append') {
        const key = message.get(`Var-${n}`) ?? '';
        if (!key) return error('Problem with category, value, or line (if required)');
        if (!matching.length) return error('Given category does not exist');
        const object = value.startsWith('>');
        for (const category of matching) category.lines.push({ key, value: object ? value.slice(1) : value, object });
      } else if (edit === 'renamecat') {
        if (!value) return error('Problem with category, value, or line (if required)');
        if (!matching.length) return error('Given category does not exist');
        for (const category of matching) category.name = value;
      } else if (edit === 'delcat') {
        if (!matching.length) return error('Given category does not exist');
        categories.splice(0, categories.length, ...categories.filter((category) => category.name !== cat));
      } else {
        return error('Unknown action command');
      }
    }
    this.configFiles.set(destination, categories);
    return reply([['Response', 'Success']]);
  }

  private originate(socket: Socket, message: AmiMessage, reply: (fields: AmiFields) => void): void {
    const actionId = message.get('ActionID') ?? '';
    switch (this.behaviour.originate) {
      case 'silent':
        return;
      case 'disconnect':
        socket.destroy();
        return;
      case 'error':
        // What Asterisk answers for a destination its context does not have (its own full stop included).
        return reply([
          ['Response', 'Error'],
          ['Message', 'Extension does not exist.'],
        ]);
      case 'fail': {
        // What Asterisk 22.10 sent for a channel it could not create (seen against a real PBX).
        reply([
          ['Response', 'Success'],
          ['Message', 'Originate successfully queued'],
        ]);
        const failure: AmiFields = [
          ['Event', 'OriginateResponse'],
          ['Privilege', 'call,all'],
          ['ActionID', actionId],
          ['Response', 'Failure'],
          ['Channel', message.get('Channel') ?? ''],
          ['Context', message.get('Context') ?? ''],
          ['Exten', message.get('Exten') ?? ''],
          ['Reason', '0'],
          ['Uniqueid', '<null>'],
          ['CallerIDNum', '<unknown>'],
          ['CallerIDName', '<unknown>'],
        ];
        setImmediate(() => this.broadcast(failure));
        return;
      }
    }
    reply([
      ['Response', 'Success'],
      ['Message', 'Originate successfully queued'],
    ]);
    const uniqueid = message.get('ChannelId') ?? `1768467600.${this.sequence++}`;
    // A Local channel's first half, as Asterisk names it (`Local/ring@t…-ring-00000001;1`); its uniqueid is the ChannelId.
    const originated = message.get('Channel') ?? '';
    const channel = `${originated}-0000${this.sequence++}${originated.startsWith('Local/') ? ';1' : ''}`;
    const callerId = message.get('CallerID') ?? '';
    const exten = message.get('Exten') ?? '';
    const events: AmiFields[] = [
      [
        ['Event', 'Newchannel'],
        ['Privilege', 'call,all'],
        ['Channel', channel],
        ['ChannelState', '0'],
        ['Uniqueid', uniqueid],
        ['Linkedid', uniqueid],
        ['Exten', exten],
      ],
      [
        ['Event', 'OriginateResponse'],
        ['Privilege', 'call,all'],
        ['ActionID', actionId],
        ['Response', 'Success'],
        ['Channel', channel],
        ['Context', message.get('Context') ?? ''],
        ['Exten', exten],
        ['Reason', '4'],
        ['Uniqueid', uniqueid],
        ['CallerIDNum', '<unknown>'],
      ],
      [
        ['Event', 'Hangup'],
        ['Privilege', 'call,all'],
        ['Channel', channel],
        ['Uniqueid', uniqueid],
        ['Cause', '16'],
        ['Cause-txt', 'Normal Clearing'],
      ],
    ];
    if (this.behaviour.emitCdr) {
      const answered = this.behaviour.disposition === 'ANSWERED';
      const times = this.behaviour.cdrTimes;
      const cdr = (leg: { uniqueid: string; channel: string; source: string; destination: string; context: string; destinationChannel: string }): AmiFields => [
        ['Event', 'Cdr'],
        ['Privilege', 'cdr,all'],
        ['AccountCode', ''],
        ['Source', leg.source],
        ['Destination', leg.destination],
        ['DestinationContext', leg.context],
        ['CallerID', callerId],
        // cdr_manager writes the channel fields cut at 80 characters (a long Local name loses its `;N`).
        ['Channel', leg.channel.slice(0, 80)],
        ['DestinationChannel', answered ? leg.destinationChannel.slice(0, 80) : ''],
        ['LastApplication', 'Dial'],
        ['LastData', ''],
        ['StartTime', times.start],
        ['AnswerTime', answered ? times.answer : ''],
        ['EndTime', times.end],
        ['Duration', '67'],
        ['BillableSeconds', answered ? '60' : '0'],
        ['Disposition', this.behaviour.disposition],
        ['AMAFlags', 'DOCUMENTATION'],
        ['UniqueID', leg.uniqueid],
        ['UserField', ''],
        ...(this.behaviour.linkedId ? ([['LinkedID', uniqueid]] as AmiFields) : []),
      ];
      const source = /<([^>]+)>/.exec(callerId)?.[1] ?? '101';
      // Several endpoints ring through Local/ring@<tenant>-ring: Asterisk writes a Cdr for each
      // Local half that dialled (`<uniqueid>;2` rings the devices, a <tenant>-ring-external half the
      // twinning), then the call's own (the ;1 half, which dialled the destination).
      const tenant = /^Local\/ring@(t[0-9a-z]+)-ring$/.exec(message.get('Channel') ?? '')?.[1];
      if (tenant) {
        const ring = (/PBXAPI_RING=(.*)$/.exec(message.all('Variable').find((v) => v.startsWith('PBXAPI_RING=')) ?? '')?.[1] ?? '').split('&');
        const device = ring.find((target) => target.startsWith('PJSIP/'));
        const twinning = ring.find((target) => target.startsWith('Local/'));
        events.push(
          cdr({
            uniqueid: `${uniqueid};2`,
            channel: `Local/ring@${tenant}-ring-0000${this.sequence};2`,
            source,
            destination: 'ring',
            context: `${tenant}-ring`,
            destinationChannel: device ? `${device}-0000002a` : '',
          }),
        );
        if (twinning) {
          const number = /^Local\/([^@]+)@/.exec(twinning)?.[1] ?? '';
          events.push(
            cdr({
              uniqueid: `1768467600.${this.sequence++}`,
              channel: `Local/${number}@${tenant}-ring-external-0000${this.sequence};2`,
              source,
              destination: number,
              context: `${tenant}-ring-external`,
              destinationChannel: 'PJSIP/trunk-0000002b',
            }),
          );
        }
      }
      events.push(cdr({ uniqueid, channel, source, destination: exten, context: message.get('Context') ?? '', destinationChannel: 'PJSIP/trunk-00000099' }));
    }
    // Events go to every logged-in session, as Asterisk broadcasts them.
    setImmediate(() => {
      for (const event of events) this.broadcast(event);
    });
  }
}

export interface PeerCategory {
  name: string;
  template: boolean;
  inherits: string[];
  lines: Array<{ key: string; value: string; object: boolean }>;
}

/** The file type each module reads: `pbxapi-<type>-<prefix>.conf` through the host's include. */
const MODULE_TYPES: Record<string, string> = {
  'pbx_config.so': 'extensions',
  'res_pjsip.so': 'pjsip',
  'app_queue.so': 'queues',
  'app_voicemail.so': 'voicemail',
  'res_musiconhold.so': 'musiconhold',
};

export interface ConfigBehaviour {
  /** CreateConfig creates the file, or answers with the error of a failed open(2). */
  createConfig: 'success' | 'error';
  /** UpdateConfig writing this destination file is refused (a category that does not exist). */
  updateConfigRefuses: string | null;
  /** Reload of this module fails as Asterisk says when the module cannot reload. */
  reloadRefuses: string | null;
  /** This action (lower case) gets no answer at all. */
  silentOn: string | null;
}

/** How Asterisk writes a file (ast_config_text_file_save2, without its header comment). */
export function renderPeerConfig(categories: PeerCategory[]): string {
  return categories
    .map((category) => {
      const options = [...(category.template ? ['!'] : []), ...category.inherits];
      const head = `[${category.name}]${options.length ? `(${options.join(',')})` : ''}`;
      return [head, ...category.lines.map((line) => `${line.key} ${line.object ? '=>' : '='} ${line.value}`)].join('\n') + '\n';
    })
    .join('\n');
}

type PeerSocket = Socket & { user?: string };

function write(socket: Socket, fields: AmiFields): void {
  if (!socket.destroyed) socket.write(`${fields.map(([key, value]) => `${key}: ${value}`).join('\r\n')}\r\n\r\n`);
}
