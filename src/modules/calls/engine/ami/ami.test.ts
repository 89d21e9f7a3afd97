import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmiClient, AmiError } from './client.js';
import { AmiMessage, AmiParser, maskedText, serializeAction } from './protocol.js';
import { AmiTestPeer } from '../../../../../test/ami-test-peer.js';
import { cdrIdOf } from './events.js';

describe('AMI framing', () => {
  function parse(chunks: string[]) {
    const banners: string[] = [];
    const messages: AmiMessage[] = [];
    const parser = new AmiParser(
      (b) => banners.push(b),
      (m) => messages.push(m),
    );
    for (const chunk of chunks) parser.push(chunk);
    return { banners, messages };
  }

  it('reads the banner and messages however the bytes are split', () => {
    const wire =
      'Asterisk Call Manager/9.0.0\r\nResponse: Success\r\nActionID: 1\r\nMessage: Authentication accepted\r\n\r\nEvent: FullyBooted\r\nPrivilege: system,all\r\nStatus: Fully Booted\r\n\r\n';
    for (const size of [1, 3, 7, wire.length]) {
      const chunks = wire.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g'))!;
      const { banners, messages } = parse(chunks);
      expect(banners).toEqual(['Asterisk Call Manager/9.0.0']);
      expect(messages).toHaveLength(2);
      expect(messages[0].get('message')).toBe('Authentication accepted');
      expect(messages[0].isResponse).toBe(true);
      expect(messages[1].isEvent).toBe(true);
      expect(messages[1].get('Status')).toBe('Fully Booted');
    }
  });

  it('keeps repeated keys and values with colons, and reads both multi-line command forms', () => {
    const { messages } = parse([
      'Asterisk Call Manager/9.0.0\r\n',
      'Response: Success\r\nActionID: a\r\nOutput: line one\r\nOutput: key: value\r\nOutput: \r\n\r\n',
      'Response: Follows\r\nActionID: b\r\nPrivilege: Command\r\nAsterisk 18\r\n\r\nName: not a header\r\n--END COMMAND--\r\n\r\n',
      'Event: Next\r\n\r\n',
    ]);
    expect(messages[0].all('Output')).toEqual(['line one', 'key: value', '']);
    expect(messages[1].get('ActionID')).toBe('b');
    expect(messages[1].output).toEqual(['Asterisk 18', '', 'Name: not a header']);
    expect(messages[2].get('Event')).toBe('Next');
  });

  it('serialises actions, refuses line breaks in values and masks secrets', () => {
    expect(
      serializeAction([
        ['Action', 'Ping'],
        ['ActionID', '7'],
      ]),
    ).toBe('Action: Ping\r\nActionID: 7\r\n\r\n');
    expect(() =>
      serializeAction([
        ['Action', 'Login'],
        ['Username', 'a\r\nAction: Originate'],
      ]),
    ).toThrow();
    expect(
      maskedText([
        ['Action', 'Login'],
        ['Username', 'admin'],
        ['Secret', 'hunter2'],
      ]),
    ).toBe('Action: Login\r\nUsername: admin\r\nSecret: ********');
  });

  it('maps Asterisk uniqueids to stable int64 record ids', () => {
    expect(cdrIdOf('1768467600.42')).toBe(1768467600000042);
    expect(cdrIdOf('pbxapi-abc')).toBe(cdrIdOf('pbxapi-abc'));
    expect(Number.isSafeInteger(cdrIdOf('pbxapi-abc'))).toBe(true);
    expect(cdrIdOf('pbxapi-abc')).not.toBe(cdrIdOf('pbxapi-abd'));
  });
});

describe('AMI client against a protocol-level peer', () => {
  const peer = new AmiTestPeer();
  let port = 0;
  const options = () => ({ host: '127.0.0.1', port, connectTimeoutMs: 1000, actionTimeoutMs: 300, trace: true });

  beforeAll(async () => {
    port = await peer.start();
  });
  afterAll(() => peer.stop());

  it('logs in, correlates answers by ActionID, and collects event-list answers', async () => {
    const client = await AmiClient.connect(options());
    expect(client.banner).toBe('Asterisk Call Manager/9.0.0');
    await client.login('admin', 's3cr3t-ami');
    const [ping, channels] = await Promise.all([client.action([['Action', 'Ping']]), client.action([['Action', 'CoreShowChannels']])]);
    expect(ping.response.get('Ping')).toBe('Pong');
    expect(channels.events.map((e) => e.get('Channel'))).toEqual(['PJSIP/alice-00000001', 'PJSIP/bob-00000002']);
    const command = await client.action([
      ['Action', 'Command'],
      ['Command', 'core show version'],
    ]);
    expect(command.response.output[0]).toMatch(/^Asterisk 20/);
    const unknown = await client.action([['Action', 'Bogus']]);
    expect(unknown.response.get('Response')).toBe('Error');
    expect(client.trace.map((e) => e.message).join('\n')).toContain('Secret: ********');
    expect(client.trace.map((e) => e.message).join('\n')).not.toContain('s3cr3t-ami');
    await client.logoff();
    expect(client.isOpen).toBe(false);
  });

  it('reports a refused login', async () => {
    const client = await AmiClient.connect(options());
    await expect(client.login('admin', 'wrong')).rejects.toMatchObject({ kind: 'login_failed' });
    client.close();
  });

  it('times out an unanswered action and fails pending actions when the peer hangs up', async () => {
    const client = await AmiClient.connect(options());
    await client.login('admin', 's3cr3t-ami');
    peer.behaviour = { ...peer.behaviour, originate: 'silent' };
    await expect(
      client.action([
        ['Action', 'Originate'],
        ['Channel', 'PJSIP/a'],
        ['Exten', '1'],
      ]),
    ).rejects.toMatchObject({ kind: 'timeout' });
    peer.behaviour = { ...peer.behaviour, originate: 'disconnect' };
    const pending = client.action(
      [
        ['Action', 'Originate'],
        ['Channel', 'PJSIP/a'],
        ['Exten', '1'],
      ],
      { timeoutMs: 5000 },
    );
    await expect(pending).rejects.toMatchObject({ kind: 'disconnected' });
    await expect(client.action([['Action', 'Ping']])).rejects.toBeInstanceOf(AmiError);
    peer.behaviour = { ...peer.behaviour, originate: 'success' };
  });

  it('reports an unreachable port, a silent server and a server that is not AMI', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(AmiClient.connect({ ...options(), port: closedPort })).rejects.toMatchObject({ kind: 'unreachable' });

    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    await expect(AmiClient.connect({ ...options(), port: (silent.address() as { port: number }).port, connectTimeoutMs: 150 })).rejects.toMatchObject({
      kind: 'timeout',
    });
    await new Promise<void>((resolve) => silent.close(() => resolve()));

    peer.behaviour = { ...peer.behaviour, noBanner: true };
    await expect(AmiClient.connect(options())).rejects.toMatchObject({ kind: 'protocol' });
    peer.behaviour = { ...peer.behaviour, noBanner: false };
  });
});
