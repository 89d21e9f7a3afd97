/**
 * A protocol-level AMI peer for tests: a real TCP server speaking the Asterisk Manager framing
 * (banner, Login, Ping, Command with multi-line output, Originate with its OriginateResponse,
 * Newchannel, Hangup and Cdr events), with switches for failures: silence, errors, a dropped
 * connection in the middle of an action.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { AmiMessage, AmiParser, type AmiFields } from './protocol.js';

export interface PeerBehaviour {
  /** What Originate does: answer and emit the call's events, refuse it, say nothing, or drop the connection. */
  originate: 'success' | 'error' | 'silent' | 'disconnect';
  /** Answer Command in the legacy `Response: Follows` form instead of `Output:` lines. */
  legacyCommand: boolean;
  /** Emit the call's Cdr event after Hangup. */
  emitCdr: boolean;
  /** Send no banner at all (a port that is not AMI). */
  noBanner: boolean;
  /** Disposition of the Cdr event. */
  disposition: 'ANSWERED' | 'NO ANSWER' | 'BUSY';
}

export class AmiTestPeer {
  readonly users = new Map<string, string>([['admin', 's3cr3t-ami']]);
  readonly received: AmiMessage[] = [];
  readonly sockets = new Set<Socket>();
  behaviour: PeerBehaviour = { originate: 'success', legacyCommand: false, emitCdr: true, noBanner: false, disposition: 'ANSWERED' };
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

  /** Sends an event to every logged-in connection. */
  broadcast(fields: AmiFields): void {
    for (const socket of this.sockets) if ((socket as Socket & { loggedIn?: boolean }).loggedIn) write(socket, fields);
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

  private handle(socket: Socket & { loggedIn?: boolean }, message: AmiMessage): void {
    this.received.push(message);
    const action = message.get('Action')?.toLowerCase();
    const actionId = message.get('ActionID') ?? '';
    const reply = (fields: AmiFields) => write(socket, [...fields.slice(0, 1), ['ActionID', actionId], ...fields.slice(1)]);
    if (action === 'login') {
      if (this.users.get(message.get('Username') ?? '') === message.get('Secret')) {
        socket.loggedIn = true;
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
    if (!socket.loggedIn)
      return reply([
        ['Response', 'Error'],
        ['Message', 'Permission denied'],
      ]);
    switch (action) {
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
        return this.configAction(action, message, reply);
      default:
        return reply([
          ['Response', 'Error'],
          ['Message', 'Invalid/unknown command'],
        ]);
    }
  }

  /** CreateConfig, UpdateConfig (NewCat, Append, RenameCat, DelCat) and Reload, as main/manager.c answers them. */
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
      if (this.configBehaviour.reloadRefuses === module) return error('Module does not support reload');
      this.reloads.push(module);
      return reply([
        ['Response', 'Success'],
        ['Message', 'Module Reloaded'],
      ]);
    }
    const source = message.get('SrcFilename') ?? '';
    const destination = message.get('DstFilename') ?? '';
    if (!source || !destination) return error('Filename not specified');
    const loaded = this.configFiles.get(source);
    if (!loaded) return error('Config file not found');
    if (this.configBehaviour.updateConfigRefuses === destination) return error('Given category does not exist');
    const categories = loaded.map((category) => ({ ...category, inherits: [...category.inherits], lines: [...category.lines] }));
    for (let x = 0; ; x++) {
      const n = String(x).padStart(6, '0');
      const edit = message.get(`Action-${n}`)?.toLowerCase();
      if (!edit) break;
      const cat = message.get(`Cat-${n}`) ?? '';
      if (!cat) return error('Category not specified');
      const value = message.get(`Value-${n}`) ?? '';
      const matching = categories.filter((category) => category.name === cat);
      if (edit === 'newcat') {
        // Split on commas outside quotes, then strip the quotes, as ast_strsep(..., AST_STRSEP_STRIP) does.
        const options = (message.get(`Options-${n}`) ?? '').match(/(?:[^,"]|"[^"]*")+/g)?.map((option) => option.trim().replace(/"/g, '')) ?? [];
        if (matching.length && !options.includes('allowdups')) return error('Create category did not complete successfully');
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
        return reply([
          ['Response', 'Error'],
          ['Message', 'Originate failed'],
        ]);
    }
    reply([
      ['Response', 'Success'],
      ['Message', 'Originate successfully queued'],
    ]);
    const uniqueid = message.get('ChannelId') ?? `1768467600.${this.sequence++}`;
    const channel = `${message.get('Channel')}-0000${this.sequence++}`;
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
      events.push([
        ['Event', 'Cdr'],
        ['Privilege', 'cdr,all'],
        ['AccountCode', ''],
        ['Source', /<([^>]+)>/.exec(callerId)?.[1] ?? '101'],
        ['Destination', exten],
        ['DestinationContext', message.get('Context') ?? ''],
        ['CallerID', callerId],
        ['Channel', channel],
        ['DestinationChannel', answered ? 'PJSIP/trunk-00000099' : ''],
        ['LastApplication', 'Dial'],
        ['LastData', ''],
        ['StartTime', '2026-01-15 09:00:00'],
        ['AnswerTime', answered ? '2026-01-15 09:00:07' : ''],
        ['EndTime', '2026-01-15 09:01:07'],
        ['Duration', '67'],
        ['BillableSeconds', answered ? '60' : '0'],
        ['Disposition', this.behaviour.disposition],
        ['AMAFlags', 'DOCUMENTATION'],
        ['UniqueID', uniqueid],
        ['UserField', ''],
      ]);
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

function write(socket: Socket, fields: AmiFields): void {
  if (!socket.destroyed) socket.write(`${fields.map(([key, value]) => `${key}: ${value}`).join('\r\n')}\r\n\r\n`);
}
