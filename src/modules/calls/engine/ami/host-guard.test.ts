import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, parseHostPatterns } from '../../../../config.js';
import type { ResolvedAddress } from '../../../../platform/net/addresses.js';
import { AmiHostGuard, AmiHostRefused, connectAmi, type HostResolver } from './host-guard.js';
import { AmiTestPeer } from '../../../../../test/ami-test-peer.js';

/** A resolver answering from a table (and counting its questions), so no test depends on real DNS. */
function resolverOf(table: Record<string, string[]>): HostResolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (name: string): Promise<ResolvedAddress[]> => {
    asked.push(name);
    const answers = table[name];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { asked });
}

const guardOf = (hosts: string, allowLoopback: boolean, resolve: HostResolver = resolverOf({})) =>
  new AmiHostGuard({ amiAllowedHosts: parseHostPatterns(hosts, 'AMI_ALLOWED_HOSTS'), amiAllowLoopback: allowLoopback }, resolve);

async function refusal(promise: Promise<unknown>): Promise<AmiHostRefused> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AmiHostRefused);
  return error as AmiHostRefused;
}

describe('AMI host settings', () => {
  it('parses AMI_ALLOWED_HOSTS into networks, names and sub-domain wildcards, and refuses anything else', () => {
    expect(parseHostPatterns(' 10.20.0.0/16, 192.0.2.7 ,PBX.Example.net.,*.pbx.example.net,[2001:db8::]/32,::1', 'X')).toEqual([
      { kind: 'network', address: '10.20.0.0', prefix: 16, family: 'ipv4' },
      { kind: 'network', address: '192.0.2.7', prefix: 32, family: 'ipv4' },
      { kind: 'name', name: 'pbx.example.net' },
      { kind: 'subdomains', suffix: '.pbx.example.net' },
      { kind: 'network', address: '2001:db8::', prefix: 32, family: 'ipv6' },
      { kind: 'network', address: '::1', prefix: 128, family: 'ipv6' },
    ]);
    expect(parseHostPatterns(undefined, 'X')).toEqual([]);
    for (const bad of ['10.0.0.0/33', '10.0.0.0/x', 'pbx_example.net', '*', '*.', 'http://pbx.example.net', '10.0.0', 'a..b'])
      expect(() => parseHostPatterns(bad, 'AMI_ALLOWED_HOSTS'), bad).toThrow(/AMI_ALLOWED_HOSTS/);
    expect(() => loadConfig({ NODE_ENV: 'test', AMI_ALLOWED_HOSTS: '10.0.0.0/8,not a host' })).toThrow(/AMI_ALLOWED_HOSTS: "not a host"/);
  });

  it('admits loopback by default in development and test, never implicitly in production', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).amiAllowLoopback).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).amiAllowLoopback).toBe(true);
    const production = { NODE_ENV: 'production', SECRET_KEY: 'ab'.repeat(32) };
    expect(loadConfig(production).amiAllowLoopback).toBe(false);
    expect(loadConfig(production).amiAllowedHosts).toEqual([]);
    expect(loadConfig({ ...production, AMI_ALLOW_LOOPBACK: 'true' }).amiAllowLoopback).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test', AMI_ALLOW_LOOPBACK: 'false' }).amiAllowLoopback).toBe(false);
    expect(() => loadConfig({ NODE_ENV: 'test', AMI_ALLOW_LOOPBACK: 'yes' })).toThrow(/AMI_ALLOW_LOOPBACK must be true or false/);
  });
});

describe('AMI host guard', () => {
  it('admits addresses of the listed networks only, and loopback only when allowed, whatever the networks', async () => {
    const guard = guardOf('10.20.0.0/16,2001:db8::/32,0.0.0.0/0', false);
    await guard.check('10.20.3.4');
    await guard.check('[2001:db8::5]');
    await guard.check('203.0.113.9'); // inside 0.0.0.0/0
    for (const host of ['127.0.0.1', '127.8.8.8', '::1', '[::1]', '::ffff:127.0.0.1', '::ffff:7f00:1'])
      expect((await refusal(guard.check(host))).message, host).toMatch(/loopback address, which this server does not admit/);
    for (const host of ['169.254.169.254', '0.0.0.0', '224.0.0.1', '255.255.255.255', 'fe80::1', '::'])
      expect((await refusal(guard.check(host))).message, host).toMatch(/never admitted/);
    const narrow = guardOf('10.20.0.0/16', true);
    await narrow.check('127.0.0.1');
    await narrow.check('::1');
    for (const host of ['10.21.0.1', '192.168.1.1', '8.8.8.8', '2001:db8::1'])
      expect((await refusal(narrow.check(host))).message, host).toBe(`The host ${host} is not in this server's allow-list of AMI hosts (AMI_ALLOWED_HOSTS).`);
  });

  it('admits listed names and sub-domains without resolving them on saving, and checks their addresses on connecting', async () => {
    const resolve = resolverOf({ 'pbx.example.net': ['192.0.2.10'], 'east.pbx.example.net': ['127.0.0.1'], 'west.pbx.example.net': ['169.254.169.254'] });
    const guard = guardOf('pbx.example.net,*.pbx.example.net', false, resolve);
    await guard.check('PBX.example.net.');
    await guard.check('east.pbx.example.net');
    expect(resolve.asked).toEqual([]);
    await expect(guard.target('pbx.example.net')).resolves.toEqual({ address: '192.0.2.10', family: 4 });
    // A listed name may point anywhere but where no PBX can be (or loopback, unless allowed).
    expect((await refusal(guard.target('east.pbx.example.net'))).message).toMatch(/resolves to a loopback address/);
    expect((await refusal(guard.target('west.pbx.example.net'))).message).toMatch(/resolves to a link-local address/);
    for (const host of ['example.net', 'evilpbx.example.net', 'pbx.example.net.evil.org', '10.1.2.3'])
      expect((await refusal(guard.check(host))).message, host).toMatch(/not in this server's allow-list/);
    await expect(guard.target('gone.pbx.example.net')).rejects.toMatchObject({ kind: 'unreachable', message: expect.stringMatching(/could not be resolved/) });
  });

  it('checks an unlisted name on every address it resolves to when the list has networks, without telling what they are', async () => {
    const resolve = resolverOf({
      'inside.example.org': ['10.20.1.1', '10.20.1.2'],
      'split.example.org': ['10.20.1.1', '10.30.0.1'],
      'home.example.org': ['127.0.0.1'],
    });
    const guard = guardOf('10.20.0.0/16', false, resolve);
    await guard.check('inside.example.org');
    await expect(guard.target('inside.example.org')).resolves.toEqual({ address: '10.20.1.1', family: 4 });
    const expected = (host: string) => `The host ${host} is not in this server's allow-list of AMI hosts (AMI_ALLOWED_HOSTS).`;
    for (const host of ['split.example.org', 'home.example.org', 'unknown.example.org']) {
      const refused = await refusal(guard.check(host));
      // One answer for an address outside, loopback, or no name at all: no map of internal DNS for the caller.
      expect(refused.message, host).toBe(expected(host));
      expect(refused.message).not.toMatch(/10\.|127\./);
    }
    expect((await refusal(guard.check('split.example.org'))).detail).toContain('10.30.0.1');
    // Without networks in the list, an unlisted name is refused without any resolution.
    const namesOnly = resolverOf({ 'inside.example.org': ['10.20.1.1'] });
    await refusal(guardOf('pbx.example.net', false, namesOnly).check('inside.example.org'));
    expect(namesOnly.asked).toEqual([]);
  });

  it('admits the name localhost only with loopback allowed', async () => {
    const resolve = resolverOf({ localhost: ['127.0.0.1', '::1'] });
    await guardOf('', true, resolve).check('localhost');
    await expect(guardOf('', true, resolve).target('localhost')).resolves.toEqual({ address: '127.0.0.1', family: 4 });
    await refusal(guardOf('', false, resolve).check('localhost'));
    await refusal(guardOf('0.0.0.0/0', false, resolve).check('localhost'));
  });
});

describe('connecting to an AMI host', () => {
  const peer = new AmiTestPeer();
  const config = { amiConnectTimeoutMs: 1000, amiActionTimeoutMs: 500 };
  beforeAll(async () => {
    await peer.start();
  });
  afterAll(() => peer.stop());

  it('connects to the address the guard checked, not to a new resolution of the name', async () => {
    // The name exists only in this resolver: the socket can reach the peer only through the checked address.
    const resolve = resolverOf({ 'pbx.test.invalid': ['127.0.0.1'] });
    const guard = guardOf('pbx.test.invalid', true, resolve);
    const client = await connectAmi({ ...config, amiAllowedHosts: [], amiAllowLoopback: true }, { host: 'pbx.test.invalid', port: peer.port }, { guard });
    expect(client.banner).toBe('Asterisk Call Manager/9.0.0');
    await client.login('admin', 's3cr3t-ami');
    await client.logoff();
    expect(resolve.asked).toEqual(['pbx.test.invalid']);
  });

  it('checks again on connecting, so a name rebound since it was saved is refused before any connection', async () => {
    const table: Record<string, string[]> = { 'pbx.example.org': ['10.20.0.5'] };
    const guard = guardOf('10.20.0.0/16', false, resolverOf(table));
    await guard.check('pbx.example.org');
    table['pbx.example.org'] = ['127.0.0.1'];
    const before = peer.accepted;
    const refused = await refusal(
      connectAmi({ ...config, amiAllowedHosts: [], amiAllowLoopback: true }, { host: 'pbx.example.org', port: peer.port }, { guard }),
    );
    expect(refused.kind).toBe('not_admitted');
    expect(peer.accepted).toBe(before);
    // Without a guard the configuration's allow-list applies.
    await refusal(connectAmi({ ...config, amiAllowedHosts: [], amiAllowLoopback: false }, { host: '127.0.0.1', port: peer.port }));
    expect(peer.accepted).toBe(before);
  });
});
